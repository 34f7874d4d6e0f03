import { adminWithdrawalSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Sends a failed BEP20 payout again. */
export function retryWithdrawal(id: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/withdrawals/${encodeURIComponent(id)}/retry`,
    body: {},
    data: adminWithdrawalSchema,
  });
}
