import { adminWithdrawalSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Approves a pending withdrawal: BEP20 is signed and broadcast by the server, the others wait to be marked paid. */
export function approveWithdrawal(id: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/withdrawals/${encodeURIComponent(id)}/approve`,
    body: {},
    data: adminWithdrawalSchema,
  });
}
