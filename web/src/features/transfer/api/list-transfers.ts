import { transferListResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function listTransfers(query: { page: number; pageSize: number }) {
  return apiRequest({ method: 'GET', path: '/api/account/transfer_list', query, data: transferListResponse });
}
