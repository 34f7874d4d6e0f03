import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function changeAuthenticator(body: { oldGoogleCode: string; newGoogleCode: string }) {
  return apiRequest({ method: 'POST', path: '/api/user/google_2fa/change', body, data: emptyResponse });
}
