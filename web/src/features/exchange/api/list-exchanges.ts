import { exchangeListResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function listExchanges(query: { page: number; pageSize: number }) {
  return apiRequest({ method: 'GET', path: '/api/exchange/list', query, data: exchangeListResponse });
}
