import { otcOrderInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/otc/buy: take a sell listing (buy USDT); answers the new order. */
export function buyFromListing(body: { listingId: string; amount: string; idempotencyKey: string }) {
  return apiRequest({ method: 'POST', path: '/api/otc/buy', body, data: otcOrderInfoResponse });
}
