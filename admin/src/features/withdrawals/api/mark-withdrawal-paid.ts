import { adminWithdrawalSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Confirms a payout made outside (TRC20, bank, wallet) with its reference. */
export function markWithdrawalPaid(id: string, reference: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/withdrawals/${encodeURIComponent(id)}/mark_paid`,
    body: { reference },
    data: adminWithdrawalSchema,
  });
}
