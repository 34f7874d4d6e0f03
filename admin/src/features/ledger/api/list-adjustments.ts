import { adjustmentsResponse, type ADJUSTMENT_STATUSES } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export type AdjustmentStatus = (typeof ADJUSTMENT_STATUSES)[number];

export function listAdjustments(status: AdjustmentStatus | null, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (status) parameters.set('status', status);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/ledger/adjustments?${parameters.toString()}`,
    data: adjustmentsResponse,
  });
}
