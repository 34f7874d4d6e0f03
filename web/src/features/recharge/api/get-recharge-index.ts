import { rechargeIndexResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function getRechargeIndex() {
  return apiRequest({ method: 'GET', path: '/api/recharge/recharge', data: rechargeIndexResponse });
}
