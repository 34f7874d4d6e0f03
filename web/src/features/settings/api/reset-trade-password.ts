import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function resetTradePassword(body: { code: string; password: string; confirmPassword: string; googleCode?: string }) {
  return apiRequest({ method: 'POST', path: '/api/user/reset_trade_password', body, data: emptyResponse });
}
