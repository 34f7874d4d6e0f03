import { otcOrderInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/otc/buyer_cancel: the buyer cancels before marking paid; the USDT returns to the listing. */
export function buyerCancel(orderId: string) {
  return apiRequest({ method: 'POST', path: '/api/otc/buyer_cancel', body: { orderId }, data: otcOrderInfoResponse });
}
