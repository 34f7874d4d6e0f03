import { machineProductSchema } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** One machine (goods detail), on sale or retired. */
export function getMachineProduct(id: string) {
  return apiRequest({ method: 'GET', path: '/api/machine/info', query: { id }, data: machineProductSchema });
}
