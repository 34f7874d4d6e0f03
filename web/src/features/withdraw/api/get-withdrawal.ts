import { withdrawalSchema } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function getWithdrawal(id: string) {
  return apiRequest({ method: 'GET', path: '/api/withdraw/detail', query: { id }, data: withdrawalSchema });
}
