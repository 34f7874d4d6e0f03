import { EXPLORERS, type DepositStatus, type Network, type WatcherStatus } from '@custos/contract';

/** antd Tag colours of deposit statuses. */
export const DEPOSIT_STATUS_COLOURS: Record<DepositStatus, string> = {
  confirming: 'gold',
  credited: 'green',
  below_minimum: 'red',
  orphaned: 'default',
};

export const DEPOSIT_STATUS_LABELS: Record<DepositStatus, string> = {
  confirming: 'Confirming',
  credited: 'Credited',
  below_minimum: 'Below minimum',
  orphaned: 'Orphaned',
};

/** "0x3f5a12…9b1c": the start and end of a hash or address. */
export function shortHash(hash: string, head = 8, tail = 6): string {
  return hash.length <= head + tail + 1 ? hash : `${hash.slice(0, head)}…${hash.slice(-tail)}`;
}

export function txUrl(network: Network, txHash: string): string {
  return `${EXPLORERS[network].tx}${txHash}`;
}

export function addressUrl(network: Network, address: string): string {
  return `${EXPLORERS[network].address}${address}`;
}

export type WatcherHealth = 'disabled' | 'failing' | 'waiting' | 'ok';

/**
 * One word for a watcher: not configured; failing (its last scans failed); waiting (configured but
 * has not scanned yet); or ok.
 */
export function watcherHealth(watcher: Pick<WatcherStatus, 'enabled' | 'consecutiveFailures' | 'lastScanAt'>): WatcherHealth {
  if (!watcher.enabled) return 'disabled';
  if (watcher.consecutiveFailures > 0) return 'failing';
  if (watcher.lastScanAt === null) return 'waiting';
  return 'ok';
}

export const WATCHER_HEALTH: Record<WatcherHealth, { colour: string; label: string }> = {
  disabled: { colour: 'default', label: 'Not configured' },
  failing: { colour: 'red', label: 'Failing' },
  waiting: { colour: 'blue', label: 'Not scanned yet' },
  ok: { colour: 'green', label: 'Scanning' },
};

/** "45 s ago", "3 min ago", "2 h ago": how long since a time, from `now`. */
export function ago(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (Number.isNaN(seconds)) return iso;
  if (seconds < 90) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} d ago`;
}
