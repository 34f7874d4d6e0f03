import { describe, expect, it } from 'vitest';
import { DIVIDEND_STATUSES, money, type AiInfo } from '@custos/contract';
import en from '../../app/i18n/locales/en.json';
import zhHans from '../../app/i18n/locales/zh-Hans.json';
import { DIVIDEND_STATUS_COLOURS, canClaim, dividendStatusKey, summaryOf, validity, withDividendIds } from './dividend';

const info: AiInfo = {
  claimable: '12.3400',
  claimedTotal: '100.0000',
  custodyBalance: '320.0000',
  validThreshold: '500.0000',
  isValid: false,
  lastPool: { day: '2026-11-20', amount: '1000.0000', members: 12 },
  records: { items: [], total: 0, page: 1, pageSize: 1 },
};

describe('AI dividend', () => {
  it('may be claimed only when something is claimable', () => {
    expect(canClaim(info)).toBe(true);
    expect(canClaim({ claimable: '0.0000' })).toBe(false);
    expect(canClaim({ claimable: '0.0001' })).toBe(true);
  });

  it('says how much more custody makes the member valid', () => {
    expect(money.formatMoney(validity(info).shortBy)).toBe('180.0000');
    expect(validity(info).valid).toBe(false);
    const valid = validity({ isValid: true, custodyBalance: '500.0000', validThreshold: '500.0000' });
    expect([valid.valid, money.formatMoney(valid.shortBy)]).toEqual([true, '0.0000']);
    // The server's word on validity counts; the shortfall is never negative.
    expect(money.formatMoney(validity({ isValid: false, custodyBalance: '600.0000', validThreshold: '500.0000' }).shortBy)).toBe(
      '0.0000',
    );
  });

  it('keeps the summary apart from the page of records', () => {
    expect(summaryOf(info)).not.toHaveProperty('records');
    expect(summaryOf(info).lastPool).toEqual(info.lastPool);
  });

  it('names every status as the spec does, with a colour', () => {
    for (const status of DIVIDEND_STATUSES) {
      expect(dividendStatusKey(status)).toBe(`dividend.status.${status}`);
      expect(DIVIDEND_STATUS_COLOURS[status]).toBeTruthy();
    }
    expect(en.dividend.status).toEqual({ claimable: 'To be claimed', claimed: 'Claimed' });
    expect(zhHans.dividend.status.claimable).not.toBe(en.dividend.status.claimable);
  });

  it('names each record by its day', () => {
    const page = withDividendIds({
      items: [
        { day: '2026-11-21', custody: '600.0000', amount: '1.0000', status: 'claimable', claimedAt: null },
        { day: '2026-11-20', custody: '600.0000', amount: '1.0000', status: 'claimed', claimedAt: '2026-11-21T02:00:00.000Z' },
      ],
      total: 2,
      page: 1,
      pageSize: 20,
    });
    expect(page.items.map((item) => item.id)).toEqual(['2026-11-21', '2026-11-20']);
  });
});
