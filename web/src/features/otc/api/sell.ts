import { otcOrderInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/otc/sell: take a buy listing (sell USDT): my USDT is held; the buyer pays to my chosen methods. */
export function sellToListing(body: {
  listingId: string;
  amount: string;
  paymentMethodIds: string[];
  tradePassword: string;
  googleCode?: string;
  idempotencyKey: string;
}) {
  return apiRequest({ method: 'POST', path: '/api/otc/sell', body, data: otcOrderInfoResponse });
}
