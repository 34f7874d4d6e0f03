import { hostingOrderSchema } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** Early redemption: the principal less the penalty back to cash; answers the closed order. */
export function redeemHostingOrder(body: { orderId: string; tradePassword: string }) {
  return apiRequest({ method: 'POST', path: '/api/hosting/sub', body, data: hostingOrderSchema });
}
