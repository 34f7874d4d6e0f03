import { accountListResponse } from '@custos/contract';
import { apiRequest } from '../lib/api/client';

export function listAccounts() {
  return apiRequest({ method: 'GET', path: '/api/account/list', data: accountListResponse });
}
