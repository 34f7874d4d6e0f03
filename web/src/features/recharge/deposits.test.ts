import { describe, expect, it } from 'vitest';
import { DEPOSIT_STATUSES, NETWORKS } from '@custos/contract';
import en from '../../app/i18n/locales/en.json';
import zhHans from '../../app/i18n/locales/zh-Hans.json';
import { DEPOSIT_STATUS_COLOURS, defaultNetwork, depositStatusText, explorerTxUrl, networkOpen, shortHash } from './deposits';

const deposit = (status: (typeof DEPOSIT_STATUSES)[number], confirmations = 3) => ({
  status,
  confirmations,
  requiredConfirmations: 3,
});

describe('deposit status', () => {
  it('counts confirmations while confirming, never beyond the required number', () => {
    expect(depositStatusText(deposit('confirming', 1))).toEqual({
      key: 'recharge.status.confirming',
      values: { confirmations: 1, required: 3 },
    });
    expect(depositStatusText(deposit('confirming', 7)).values).toEqual({ confirmations: 3, required: 3 });
    expect(depositStatusText(deposit('confirming', -1)).values).toEqual({ confirmations: 0, required: 3 });
  });

  it('names every status of the contract, with a colour', () => {
    for (const status of DEPOSIT_STATUSES) {
      const { key } = depositStatusText(deposit(status));
      expect(key).toBe(`recharge.status.${status}`);
      expect(DEPOSIT_STATUS_COLOURS[status], status).toBeTruthy();
    }
    // The other six languages are held to the English keys by the locales test.
    expect(Object.keys(en.recharge.status).sort()).toEqual([...DEPOSIT_STATUSES].sort());
    expect(en.recharge.status.confirming).toBe('{{confirmations}}/{{required}} confirmations');
    expect(en.recharge.status.below_minimum).toBe('Below minimum, not credited');
    expect(en.recharge.status.orphaned).toBe('Dropped by the network');
    expect(zhHans.recharge.status.credited).not.toBe(en.recharge.status.credited);
  });
});

describe('transaction links', () => {
  it('shorten hashes to their start and end', () => {
    const hash = `0x${'ab'.repeat(32)}`;
    expect(shortHash(hash)).toBe('0xabab…abab');
    expect(shortHash('0x1234')).toBe('0x1234');
    expect(shortHash('12345678901')).toBe('12345678901');
    expect(shortHash('123456789012')).toBe('123456…9012');
  });

  it('open the network’s explorer', () => {
    expect(explorerTxUrl('BEP20', '0xabc')).toBe('https://bscscan.com/tx/0xabc');
    expect(explorerTxUrl('TRC20', 'def')).toBe('https://tronscan.org/#/transaction/def');
    for (const network of NETWORKS) expect(explorerTxUrl(network, 'x').startsWith('https://')).toBe(true);
  });
});

describe('network choice', () => {
  it('starts on the first open network', () => {
    const both = {
      networks: [
        { network: 'BEP20' as const, enabled: true },
        { network: 'TRC20' as const, enabled: true },
      ],
    };
    const tronOnly = {
      networks: [
        { network: 'BEP20' as const, enabled: false },
        { network: 'TRC20' as const, enabled: true },
      ],
    };
    const none = {
      networks: [
        { network: 'BEP20' as const, enabled: false },
        { network: 'TRC20' as const, enabled: false },
      ],
    };
    expect(defaultNetwork(both)).toBe('BEP20');
    expect(defaultNetwork(tronOnly)).toBe('TRC20');
    expect(defaultNetwork(none)).toBe('BEP20');
    expect(defaultNetwork({ networks: [] })).toBeNull();
    expect(networkOpen(tronOnly, 'BEP20')).toBe(false);
    expect(networkOpen(tronOnly, 'TRC20')).toBe(true);
  });
});
