import { otcOrderInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/otc/cancel: the seller cancels before the buyer marked the order paid. */
export function sellerCancel(orderId: string) {
  return apiRequest({ method: 'POST', path: '/api/otc/cancel', body: { orderId }, data: otcOrderInfoResponse });
}
