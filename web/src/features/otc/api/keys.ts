import type { OtcListingState, OtcOrderState, OtcPaymentType, OtcRole, OtcSide } from '@custos/contract';

/** Query keys of OTC trading (decision 023, 032): every key starts with the domain, so a live event reaches them all. */
export const otcKeys = {
  all: ['otc'] as const,
  info: () => [...otcKeys.all, 'info'] as const,
  market: (side: OtcSide, amount: string, paymentType: OtcPaymentType | undefined) =>
    [...otcKeys.all, 'market', side, amount, paymentType ?? 'all'] as const,
  myListings: (state: OtcListingState | undefined) => [...otcKeys.all, 'my-listings', state ?? 'all'] as const,
  listing: (id: string) => [...otcKeys.all, 'listing', id] as const,
  myOrders: (role: OtcRole, state: OtcOrderState | undefined) => [...otcKeys.all, 'my-orders', role, state ?? 'all'] as const,
  pending: () => [...otcKeys.all, 'pending'] as const,
  order: (id: string) => [...otcKeys.all, 'order', id] as const,
  /** Every order's chat (a message of the other party refreshes only chats). */
  chats: () => [...otcKeys.all, 'chat'] as const,
  chat: (orderId: string) => [...otcKeys.chats(), orderId] as const,
};
