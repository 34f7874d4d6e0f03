import type { ContractOrderFilter } from './contracts';

/**
 * Every contracts query starts with `contractKeys.all`: a close, a save or a quote refreshes every
 * contracts screen at once; each filter and page is a key of its own (decision 030).
 */
export const contractKeys = {
  all: ['contracts'] as const,
  settings: ['contracts', 'settings'] as const,
  products: ['contracts', 'products'] as const,
  book: ['contracts', 'book'] as const,
  quoteProposals: (status: string | null) => ['contracts', 'quote-proposals', status] as const,
  manualQuoteSettings: ['contracts', 'manual-quote-settings'] as const,
  orders: (filter: ContractOrderFilter, page: number) => ['contracts', 'orders', filter, page] as const,
};
