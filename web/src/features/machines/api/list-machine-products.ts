import { machineListResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** The machines on sale. */
export function listMachineProducts() {
  return apiRequest({ method: 'GET', path: '/api/machine/list', data: machineListResponse });
}
