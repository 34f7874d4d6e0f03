import { otcOrderInfoResponse, type OtcAppealRequest } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/otc/appeal (spec "buyer appeal", the seller too): the order freezes until an operator rules. */
export function appealOrder(body: OtcAppealRequest) {
  return apiRequest({ method: 'POST', path: '/api/otc/appeal', body, data: otcOrderInfoResponse });
}
