import { hostingOrderSchema } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/**
 * Moves USDT from cash into custody on a plan. 4900 (no trading password) is handled by the client;
 * refusals (amount out of the plan's range, balance, retired plan) come with the server's message.
 */
export function createHostingOrder(body: {
  planId: string;
  amount: string;
  autoRenew: boolean;
  tradePassword: string;
  idempotencyKey: string;
}) {
  return apiRequest({ method: 'POST', path: '/api/hosting/create', body, data: hostingOrderSchema });
}
