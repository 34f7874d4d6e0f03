import { sessionResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function loginByCode(body: { email: string; code: string }) {
  return apiRequest({ method: 'POST', path: '/api/auth/login_by_code', body, data: sessionResponse });
}
