import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function updateTradePassword(body: {
  oldTradePassword: string;
  password: string;
  confirmPassword: string;
  googleCode?: string;
}) {
  return apiRequest({ method: 'POST', path: '/api/user/update_trade_password', body, data: emptyResponse });
}
