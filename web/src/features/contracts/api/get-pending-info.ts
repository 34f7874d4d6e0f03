import { contractPendingInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/contracts/pending_info: the member's contract account (free and used margin, equity, margin level, stop-out level). */
export function getContractPendingInfo() {
  return apiRequest({ method: 'GET', path: '/api/contracts/pending_info', data: contractPendingInfoResponse });
}
