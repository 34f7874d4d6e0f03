import { codeSentResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function sendForgotCode(body: { email: string }) {
  return apiRequest({ method: 'POST', path: '/api/auth/send_forgot_code', body, data: codeSentResponse });
}
