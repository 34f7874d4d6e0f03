import { dividendPoolsResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/**
 * Removes a day's pool that has not been shared out (audited); answers every pool. The server
 * refuses (409, with its message) a pool already shared out.
 */
export function removeDividendPool(day: string) {
  return consoleRequest({
    method: 'DELETE',
    path: `/api/admin/dividend/pools/${encodeURIComponent(day)}`,
    data: dividendPoolsResponse,
  });
}
