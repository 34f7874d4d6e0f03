import { sessionResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function login(body: { email: string; password: string }) {
  return apiRequest({ method: 'POST', path: '/api/auth/login', body, data: sessionResponse });
}
