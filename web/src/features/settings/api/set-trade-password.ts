import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function setTradePassword(body: { password: string; confirmPassword: string }) {
  return apiRequest({ method: 'POST', path: '/api/user/set_trade_password', body, data: emptyResponse });
}
