import { incomeTypeListResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** The income types and which of them exist yet (the team's arrive with the team feature). */
export function listIncomeTypes() {
  return apiRequest({ method: 'GET', path: '/api/income/type_list', data: incomeTypeListResponse });
}
