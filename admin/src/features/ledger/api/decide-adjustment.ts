import { adjustmentSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Approve (posts the entry) or reject a proposed adjustment; the proposer may not decide their own. */
export function decideAdjustment(id: string, decision: 'approve' | 'reject', note: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/ledger/adjustments/${encodeURIComponent(id)}/${decision}`,
    body: note ? { note } : {},
    data: adjustmentSchema,
  });
}
