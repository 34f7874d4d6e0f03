/** Every outbox query starts with `mailKeys.all`; each recipient filter and page is a key of its own. */
export const mailKeys = {
  all: ['mail'] as const,
  list: (recipient: string, page: number) => [...mailKeys.all, 'list', recipient, page] as const,
};
