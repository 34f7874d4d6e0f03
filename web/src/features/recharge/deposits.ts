import { EXPLORERS, type Deposit, type DepositStatus, type Network, type RechargeIndex } from '@custos/contract';

/** antd-mobile Tag colours. */
export type TagColor = 'default' | 'primary' | 'success' | 'warning' | 'danger';

/** Confirming is on its way, credited is done, below the minimum is final and lost, dropped may come back. */
export const DEPOSIT_STATUS_COLOURS: Record<DepositStatus, TagColor> = {
  confirming: 'warning',
  credited: 'success',
  below_minimum: 'danger',
  orphaned: 'default',
};

/** The locale key and values of a deposit's status tag: "2/3 confirmations" while it confirms. */
export function depositStatusText(deposit: Pick<Deposit, 'status' | 'confirmations' | 'requiredConfirmations'>): {
  key: `recharge.status.${DepositStatus}`;
  values: Record<string, number>;
} {
  if (deposit.status === 'confirming') {
    const required = deposit.requiredConfirmations;
    const confirmations = Math.max(0, Math.min(deposit.confirmations, required));
    return { key: 'recharge.status.confirming', values: { confirmations, required } };
  }
  return { key: `recharge.status.${deposit.status}`, values: {} };
}

/** "0x3f5a…9b1c": the start and end of a transaction hash or address. */
export function shortHash(hash: string, head = 6, tail = 4): string {
  return hash.length <= head + tail + 1 ? hash : `${hash.slice(0, head)}…${hash.slice(-tail)}`;
}

/** The transaction on the network's block explorer. */
export function explorerTxUrl(network: Network, txHash: string): string {
  return `${EXPLORERS[network].tx}${txHash}`;
}

/** The network shown first: the first open one, else the first listed (shown as not available). */
export function defaultNetwork(index: Pick<RechargeIndex, 'networks'>): Network | null {
  return (index.networks.find((entry) => entry.enabled) ?? index.networks[0])?.network ?? null;
}

/** Whether deposits are open on a network. */
export function networkOpen(index: Pick<RechargeIndex, 'networks'>, network: Network): boolean {
  return index.networks.some((entry) => entry.network === network && entry.enabled);
}
