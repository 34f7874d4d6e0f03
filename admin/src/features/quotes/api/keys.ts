/** The console's quotes (pairs, prices and the feed's state): one query, refreshed after every change. */
export const quotesKeys = {
  all: ['quotes'] as const,
};
