import { dividendPoolsResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** The AI dividend pool of each day: its size, what the settlement shared out among how many, what is claimed. */
export function listDividendPools() {
  return consoleRequest({ method: 'GET', path: '/api/admin/dividend/pools', data: dividendPoolsResponse });
}
