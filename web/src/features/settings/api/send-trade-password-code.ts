import { codeSentResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function sendTradePasswordCode() {
  return apiRequest({ method: 'POST', path: '/api/user/send_trade_password_code', data: codeSentResponse });
}
