/** One page of a list call (the contract's `pageOf`). */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * Appends a page to what is shown. Lists are newest first and paged by offset, so a record made
 * while paging pushes the next page down by one: items already shown are not shown twice.
 */
export function appendPage<T extends { id: string }>(shown: readonly T[], page: Page<T>): T[] {
  const seen = new Set(shown.map((item) => item.id));
  return [...shown, ...page.items.filter((item) => !seen.has(item.id))];
}

/** Whether another page may follow this one. */
export function hasMorePages(page: Page<unknown>): boolean {
  return page.items.length > 0 && page.page * page.pageSize < page.total;
}
