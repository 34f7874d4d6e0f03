import { sessionResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function register(body: {
  email: string;
  code: string;
  invitationCode: string;
  password: string;
  confirmPassword: string;
}) {
  return apiRequest({ method: 'POST', path: '/api/auth/register', body, data: sessionResponse });
}
