import { transferResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function transfer(body: {
  toAccountId: string;
  asset: 'USDT' | 'RAB';
  amount: string;
  tradePassword: string;
  idempotencyKey: string;
}) {
  return apiRequest({ method: 'POST', path: '/api/account/transfer', body, data: transferResponse });
}
