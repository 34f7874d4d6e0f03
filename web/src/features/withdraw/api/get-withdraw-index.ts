import { withdrawIndexResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** Balance, settings, window, methods and what the form needs, before the member types. */
export function getWithdrawIndex() {
  return apiRequest({ method: 'GET', path: '/api/withdraw/index', data: withdrawIndexResponse });
}
