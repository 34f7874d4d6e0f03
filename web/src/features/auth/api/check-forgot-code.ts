import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function checkForgotCode(body: { email: string; code: string }) {
  return apiRequest({ method: 'POST', path: '/api/auth/check_forgot_code', body, data: emptyResponse });
}
