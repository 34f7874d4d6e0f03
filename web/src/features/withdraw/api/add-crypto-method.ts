import { withdrawMethodSchema, type Network } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** Saves a receiving address; answers the saved method. */
export function addCryptoMethod(body: { network: Network; address: string }) {
  return apiRequest({ method: 'POST', path: '/api/withdraw/add_chain', body, data: withdrawMethodSchema });
}
