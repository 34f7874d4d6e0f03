import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function resetPassword(body: { email: string; code: string; password: string; confirmPassword: string }) {
  return apiRequest({ method: 'POST', path: '/api/auth/reset_password', body, data: emptyResponse });
}
