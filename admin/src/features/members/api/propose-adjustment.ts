import { adjustmentSchema, type Asset } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export interface AdjustmentProposal {
  accountId: string;
  asset: Asset;
  direction: 'credit' | 'debit';
  amount: string;
  reason: string;
}

export function proposeAdjustment(proposal: AdjustmentProposal) {
  return consoleRequest({ method: 'POST', path: '/api/admin/ledger/adjustments', body: proposal, data: adjustmentSchema });
}
