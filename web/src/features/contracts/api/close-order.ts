import { contractCloseResponse, type ContractCloseRequest } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/contracts/close: closes an order at market, fully or `lots` of it; answers the closed part and what stays open. */
export function closeContractOrder(body: ContractCloseRequest) {
  return apiRequest({ method: 'POST', path: '/api/contracts/close', body, data: contractCloseResponse });
}
