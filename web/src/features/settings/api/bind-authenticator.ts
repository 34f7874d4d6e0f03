import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function bindAuthenticator(body: { googleCode: string }) {
  return apiRequest({ method: 'POST', path: '/api/user/google_2fa/bind', body, data: emptyResponse });
}
