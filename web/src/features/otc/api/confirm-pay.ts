import { otcOrderInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/otc/confirm_pay: the buyer has paid off-platform, before the payment deadline. */
export function confirmPay(orderId: string) {
  return apiRequest({ method: 'POST', path: '/api/otc/confirm_pay', body: { orderId }, data: otcOrderInfoResponse });
}
