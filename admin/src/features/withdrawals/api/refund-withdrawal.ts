import { adminWithdrawalSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Gives up a failed payout: the held amount goes back to the member, who sees the reason. */
export function refundWithdrawal(id: string, reason: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/withdrawals/${encodeURIComponent(id)}/refund`,
    body: { reason },
    data: adminWithdrawalSchema,
  });
}
