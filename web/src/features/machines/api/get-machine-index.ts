import { machineIndexResponse, type MemberMachine } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** My hashrate, output and tickets at a glance, and a page of my machines (newest first). */
export function getMachineIndex(query: { page: number; pageSize: number; status?: MemberMachine['status'] }) {
  return apiRequest({ method: 'GET', path: '/api/machine/index', query, data: machineIndexResponse });
}
