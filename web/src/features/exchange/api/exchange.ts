import { exchangeResponse, type ExchangeDirection } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function exchange(body: {
  direction: ExchangeDirection;
  amount: string;
  quotedPrice: string;
  tradePassword: string;
  idempotencyKey: string;
}) {
  return apiRequest({ method: 'POST', path: '/api/exchange/exchange', body, data: exchangeResponse });
}
