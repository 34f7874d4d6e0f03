import { EXPLORERS, type Network, type Withdrawal, type WithdrawalStatus } from '@custos/contract';

/** antd-mobile Tag colours. */
export type TagColor = 'default' | 'primary' | 'success' | 'warning' | 'danger';

/** Waiting is amber, under way blue, paid green, failed red, money back grey. */
export const WITHDRAWAL_STATUS_COLOURS: Record<WithdrawalStatus, TagColor> = {
  pending: 'warning',
  processing: 'primary',
  success: 'success',
  failed: 'danger',
  refunded: 'default',
};

/** The locale key of a status tag ("Pending approval", "Processing", "Completed", "Payout failed", "Refunded"). */
export function withdrawalStatusKey(status: WithdrawalStatus): `withdraw.status.${WithdrawalStatus}` {
  return `withdraw.status.${status}`;
}

/** The transaction on the network's block explorer. */
export function explorerTxUrl(network: Network, txHash: string): string {
  return `${EXPLORERS[network].tx}${txHash}`;
}

/** A link to the payout on chain, when there is one. */
export function payoutTxUrl(withdrawal: Pick<Withdrawal, 'network' | 'txHash'>): string | null {
  return withdrawal.network && withdrawal.txHash ? explorerTxUrl(withdrawal.network, withdrawal.txHash) : null;
}

/** Whether the member should see why: a rejection or a failed payout. */
export function showsReason(withdrawal: Pick<Withdrawal, 'status' | 'reason'>): boolean {
  return Boolean(withdrawal.reason) && (withdrawal.status === 'refunded' || withdrawal.status === 'failed');
}

export type StepState = 'finish' | 'process' | 'wait' | 'error';

export interface TimelineStep {
  /** Locale key under withdraw.timeline. */
  key: 'submitted' | 'reviewing' | 'reviewed' | 'paying' | 'paid' | 'failed' | 'refunded';
  time: string | null;
  state: StepState;
}

/**
 * Submitted → reviewed → paid (or failed, or refunded), each with its time when known. A refund
 * without an approval (a rejection) ends at the review.
 */
export function withdrawalTimeline(
  withdrawal: Pick<Withdrawal, 'status' | 'createdAt' | 'decidedAt' | 'completedAt'>,
): TimelineStep[] {
  const submitted: TimelineStep = { key: 'submitted', time: withdrawal.createdAt, state: 'finish' };
  switch (withdrawal.status) {
    case 'pending':
      return [submitted, { key: 'reviewing', time: null, state: 'process' }, { key: 'paid', time: null, state: 'wait' }];
    case 'processing':
      return [
        submitted,
        { key: 'reviewed', time: withdrawal.decidedAt, state: 'finish' },
        { key: 'paying', time: null, state: 'process' },
      ];
    case 'success':
      return [
        submitted,
        { key: 'reviewed', time: withdrawal.decidedAt, state: 'finish' },
        { key: 'paid', time: withdrawal.completedAt, state: 'finish' },
      ];
    case 'failed':
      return [
        submitted,
        { key: 'reviewed', time: withdrawal.decidedAt, state: 'finish' },
        { key: 'failed', time: withdrawal.completedAt, state: 'error' },
      ];
    case 'refunded':
      return [
        submitted,
        { key: 'reviewed', time: withdrawal.decidedAt, state: 'finish' },
        { key: 'refunded', time: withdrawal.completedAt ?? withdrawal.decidedAt, state: 'error' },
      ];
  }
}
