import { adminWithdrawalSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Rejects a pending withdrawal; the held amount goes back to the member, who sees the reason. */
export function rejectWithdrawal(id: string, reason: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/withdrawals/${encodeURIComponent(id)}/reject`,
    body: { reason },
    data: adminWithdrawalSchema,
  });
}
