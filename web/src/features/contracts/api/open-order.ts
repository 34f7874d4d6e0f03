import { contractOpenResponse, type ContractOpenRequest } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/contracts/open: a market order (buy at ask, sell at bid); answers the new order. */
export function openContractOrder(body: ContractOpenRequest) {
  return apiRequest({ method: 'POST', path: '/api/contracts/open', body, data: contractOpenResponse });
}
