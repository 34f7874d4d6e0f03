import { otcOrderInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/otc/release (spec "seller loan"): the USDT goes to the buyer; trading password, and the authenticator code when bound. */
export function releaseOrder(body: { orderId: string; tradePassword: string; googleCode?: string }) {
  return apiRequest({ method: 'POST', path: '/api/otc/release', body, data: otcOrderInfoResponse });
}
