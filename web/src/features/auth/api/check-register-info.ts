import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function checkRegisterInfo(body: { email: string; code: string }) {
  return apiRequest({ method: 'POST', path: '/api/auth/check_register_info', body, data: emptyResponse });
}
