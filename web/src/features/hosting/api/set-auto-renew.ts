import { hostingOrderSchema } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** Turns auto-renew of an active order on or off; answers the order. */
export function setAutoRenew(body: { orderId: string; autoRenew: boolean }) {
  return apiRequest({ method: 'POST', path: '/api/hosting/auto_renew', body, data: hostingOrderSchema });
}
