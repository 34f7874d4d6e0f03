import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function logout() {
  return apiRequest({ method: 'POST', path: '/api/user/logout', data: emptyResponse });
}
