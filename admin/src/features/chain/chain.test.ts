import { describe, expect, it } from 'vitest';
import { DEPOSIT_STATUSES, NETWORKS } from '@custos/contract';
import {
  DEPOSIT_STATUS_COLOURS,
  DEPOSIT_STATUS_LABELS,
  WATCHER_HEALTH,
  addressUrl,
  ago,
  shortHash,
  txUrl,
  watcherHealth,
} from './chain';

describe('deposits', () => {
  it('colour and name every status of the contract', () => {
    for (const status of DEPOSIT_STATUSES) {
      expect(DEPOSIT_STATUS_COLOURS[status], status).toBeTruthy();
      expect(DEPOSIT_STATUS_LABELS[status], status).toBeTruthy();
    }
  });

  it('link hashes and addresses to the network’s explorer, shortened for the table', () => {
    expect(txUrl('BEP20', '0xabc')).toBe('https://bscscan.com/tx/0xabc');
    expect(addressUrl('TRC20', 'TXyz')).toBe('https://tronscan.org/#/address/TXyz');
    for (const network of NETWORKS) expect(txUrl(network, 'h')).toMatch(/^https:\/\//);
    expect(shortHash(`0x${'1'.repeat(64)}`)).toBe('0x111111…111111');
    expect(shortHash('0x1234')).toBe('0x1234');
  });
});

describe('watchers', () => {
  const watcher = { enabled: true, consecutiveFailures: 0, lastScanAt: '2026-01-01T00:00:00.000Z' };

  it('read as not configured, failing, not scanned yet or scanning', () => {
    expect(watcherHealth({ ...watcher, enabled: false, consecutiveFailures: 3 })).toBe('disabled');
    expect(watcherHealth({ ...watcher, consecutiveFailures: 1 })).toBe('failing');
    expect(watcherHealth({ ...watcher, lastScanAt: null })).toBe('waiting');
    expect(watcherHealth(watcher)).toBe('ok');
    expect(WATCHER_HEALTH.failing.colour).toBe('red');
  });

  it('say how long ago they last scanned', () => {
    const now = Date.parse('2026-01-01T12:00:00.000Z');
    expect(ago('2026-01-01T11:59:50.000Z', now)).toBe('10 s ago');
    expect(ago('2026-01-01T11:55:00.000Z', now)).toBe('5 min ago');
    expect(ago('2026-01-01T09:00:00.000Z', now)).toBe('3 h ago');
    expect(ago('2025-12-29T12:00:00.000Z', now)).toBe('3 d ago');
    expect(ago('2026-01-01T12:00:05.000Z', now)).toBe('0 s ago');
    expect(ago('not a time', now)).toBe('not a time');
  });
});
