import { miningRecordsResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** Mining records, one per machine per day, newest first: all my machines, or one. */
export function listMiningRecords(query: { page: number; pageSize: number; machineId?: string }) {
  return apiRequest({ method: 'GET', path: '/api/machine/detail', query, data: miningRecordsResponse });
}
