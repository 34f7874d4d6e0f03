import { contractSetTargetsResponse, type ContractSetTargetsRequest } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/contracts/set_targets: an open order's take-profit and stop-loss ("" or null removes one). */
export function setContractTargets(body: ContractSetTargetsRequest) {
  return apiRequest({ method: 'POST', path: '/api/contracts/set_targets', body, data: contractSetTargetsResponse });
}
