import { settlementRunSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/**
 * Settles a failed or missed past day again (audited); each order is still paid once per day. The
 * server refuses (409, with its message) a day that has not ended, is completed, or comes before a
 * day not yet completed (days settle in order).
 */
export function rerunSettlement(day: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/settlement/runs/${encodeURIComponent(day)}/rerun`,
    body: {},
    data: settlementRunSchema,
  });
}
