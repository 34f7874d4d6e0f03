import type { OtcAppealStatus } from '@custos/contract';
import type { OtcListingFilter, OtcOrderFilter } from './otc';

/**
 * Every OTC query starts with `otcKeys.all`: a ruling, a take-down or a live event refreshes every
 * OTC screen at once; each filter and page is a key of its own (decision 030).
 */
export const otcKeys = {
  all: ['otc'] as const,
  settings: ['otc', 'settings'] as const,
  appeals: (status: OtcAppealStatus, page: number) => ['otc', 'appeals', status, page] as const,
  listings: (filter: OtcListingFilter, page: number) => ['otc', 'listings', filter, page] as const,
  orders: (filter: OtcOrderFilter, page: number) => ['otc', 'orders', filter, page] as const,
  order: (orderId: string) => ['otc', 'order', orderId] as const,
  chat: (orderId: string) => ['otc', 'order', orderId, 'chat'] as const,
  suspensions: ['otc', 'suspensions'] as const,
};
