import { settlementRunsResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** The daily settlement's runs with their counts, totals and errors. */
export function listSettlementRuns() {
  return consoleRequest({ method: 'GET', path: '/api/admin/settlement/runs', data: settlementRunsResponse });
}
