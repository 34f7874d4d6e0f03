import { withdrawResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/**
 * Requests a withdrawal (the amount is held until an operator decides). 4900 and 4901 are handled by
 * the client (trading password / methods screen); refusals come with the server's message.
 */
export function requestWithdrawal(body: {
  methodId: string;
  amount: string;
  tradePassword: string;
  googleCode?: string;
  idempotencyKey: string;
}) {
  return apiRequest({ method: 'POST', path: '/api/withdraw/withdraw', body, data: withdrawResponse });
}
