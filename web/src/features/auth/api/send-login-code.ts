import { codeSentResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function sendLoginCode(body: { email: string }) {
  return apiRequest({ method: 'POST', path: '/api/auth/send_login_code', body, data: codeSentResponse });
}
