import { rechargeListResponse, type Network } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function listDeposits(query: { page: number; pageSize: number; network?: Network }) {
  return apiRequest({ method: 'GET', path: '/api/recharge/list', query, data: rechargeListResponse });
}
