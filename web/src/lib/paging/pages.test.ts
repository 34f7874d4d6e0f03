import { describe, expect, it } from 'vitest';
import { appendPage, hasMorePages, type Page } from './pages';

const page = (ids: string[], number: number, total: number, pageSize = 2): Page<{ id: string }> => ({
  items: ids.map((id) => ({ id })),
  page: number,
  pageSize,
  total,
});

describe('paged lists', () => {
  it('append pages without showing a record twice when new ones pushed the list down', () => {
    const shown = appendPage([], page(['e', 'd'], 1, 5));
    // A new record "f" arrived: page 2 now starts with "d" again.
    expect(appendPage(shown, page(['d', 'c'], 2, 6)).map((item) => item.id)).toEqual(['e', 'd', 'c']);
  });

  it('stop when the total is reached or a page comes back empty', () => {
    expect(hasMorePages(page(['a', 'b'], 1, 5))).toBe(true);
    expect(hasMorePages(page(['e'], 3, 5))).toBe(false);
    expect(hasMorePages(page(['c', 'd'], 2, 4))).toBe(false);
    expect(hasMorePages(page([], 1, 0))).toBe(false);
    expect(hasMorePages(page([], 4, 10))).toBe(false);
  });
});
