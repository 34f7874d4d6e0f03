import { authenticatorResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function getAuthenticator() {
  return apiRequest({ method: 'GET', path: '/api/user/google_2fa', data: authenticatorResponse });
}
