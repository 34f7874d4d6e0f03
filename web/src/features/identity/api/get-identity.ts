import { identityResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function getIdentity() {
  return apiRequest({ method: 'GET', path: '/api/user/identity', data: identityResponse });
}
