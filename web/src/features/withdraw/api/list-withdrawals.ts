import { withdrawListResponse, type WithdrawalStatus } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function listWithdrawals(query: { page: number; pageSize: number; status?: WithdrawalStatus }) {
  return apiRequest({ method: 'GET', path: '/api/withdraw/list', query, data: withdrawListResponse });
}
