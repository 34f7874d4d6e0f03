import { rechargeAddressResponse, type Network } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** The member's deposit address on a network; a closed network is refused (409) with the server's message. */
export function getRechargeAddress(network: Network) {
  return apiRequest({ method: 'GET', path: '/api/recharge/address', query: { network }, data: rechargeAddressResponse });
}
