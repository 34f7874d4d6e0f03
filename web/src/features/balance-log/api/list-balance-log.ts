import { balanceLogResponse, type Asset, type RecordType } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function listBalanceLog(query: { asset?: Asset; type?: RecordType; page: number; pageSize: number }) {
  return apiRequest({ method: 'GET', path: '/api/user/balance_log', query, data: balanceLogResponse });
}
