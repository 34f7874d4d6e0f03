import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function updatePasswordForced(body: { password: string; confirmPassword: string }) {
  return apiRequest({ method: 'POST', path: '/api/user/update_password_forced', body, data: emptyResponse });
}
