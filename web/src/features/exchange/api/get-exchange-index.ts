import { exchangeIndexResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function getExchangeIndex() {
  return apiRequest({ method: 'GET', path: '/api/exchange/index', data: exchangeIndexResponse });
}
