import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function updatePassword(body: { oldPassword: string; password: string; confirmPassword: string; googleCode?: string }) {
  return apiRequest({ method: 'POST', path: '/api/user/update_password', body, data: emptyResponse });
}
