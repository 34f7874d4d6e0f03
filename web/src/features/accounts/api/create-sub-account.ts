import { createSubAccountResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function createSubAccount(body: { nickname: string }) {
  return apiRequest({ method: 'POST', path: '/api/account/create_sub', body, data: createSubAccountResponse });
}
