import { dividendPoolsResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/**
 * Sets a day's pool before that day's settlement shares it out (audited); answers every pool. The
 * server refuses (409, with its message) a day shared out already.
 */
export function setDividendPool(day: string, amount: string) {
  return consoleRequest({
    method: 'PUT',
    path: `/api/admin/dividend/pools/${encodeURIComponent(day)}`,
    body: { amount },
    data: dividendPoolsResponse,
  });
}
