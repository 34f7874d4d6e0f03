import { codeSentResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function sendRegisterCode(body: { email: string; invitationCode: string }) {
  return apiRequest({ method: 'POST', path: '/api/auth/send_register_code', body, data: codeSentResponse });
}
