import { incomeLogResponse, type IncomeType } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** Every earning with its type, state and source, newest first; of one type when given. */
export function listIncome(query: { page: number; pageSize: number; type?: IncomeType }) {
  return apiRequest({ method: 'GET', path: '/api/income/log', query, data: incomeLogResponse });
}
