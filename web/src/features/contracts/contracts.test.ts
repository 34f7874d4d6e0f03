import { describe, expect, it } from 'vitest';
import { ALWAYS_OPEN_SESSIONS, FOREX_WEEK_SESSIONS, PAR_CONVERSION, translate, type ContractOrder } from '@custos/contract';
import {
  applyQuote,
  closeEstimate,
  closeLotsProblem,
  displayLots,
  displayPrice,
  liveAccount,
  liveOrder,
  lotsProblem,
  marginProblem,
  openPreview,
  pnlDirection,
  sessionsSummary,
  targetProblems,
} from './contracts';

const eurusd = {
  id: 'eurusd',
  symbol: 'EUR/USD',
  digits: 5,
  contractSize: '100000',
  minLots: '0.01',
  lotStep: '0.01',
  maxLots: '10.00',
  bid: '1.08500',
  ask: '1.08520',
  conversion: PAR_CONVERSION,
};

function order(overrides: Partial<ContractOrder>): ContractOrder {
  return {
    id: 'o1',
    orderNo: 'C1',
    productId: 'eurusd',
    symbol: 'EUR/USD',
    displayName: 'Euro / US dollar',
    digits: 5,
    contractSize: '100000',
    side: 'buy',
    state: 'open',
    lots: '0.10',
    leverage: 100,
    openPrice: '1.08520',
    openedAt: '2026-11-27T01:00:00.000Z',
    margin: '108.5200',
    spreadCost: '2.0000',
    takeProfit: null,
    stopLoss: null,
    swap: '0.0000',
    closePrice: '1.08500',
    closedAt: null,
    closeReason: null,
    pnl: '-2.0000',
    parentOrderNo: null,
    closeNote: null,
    ...overrides,
  };
}

describe('the open preview (figures worked by hand)', () => {
  it('holds lots × contract size × price ÷ leverage: a buy at the ask, a sell at the bid', () => {
    // 0.1 × 100 000 × 1.08520 ÷ 100 = 108.52; spread 10 000 × 0.00020 = 2; 1 000 − 108.52 = 891.48
    expect(openPreview(eurusd, 'buy', '0.1', 100, '1000.0000')).toEqual({
      price: '1.08520',
      margin: '108.5200',
      spreadCost: '2.0000',
      freeMarginAfter: '891.4800',
      enough: true,
    });
    expect(openPreview(eurusd, 'sell', '0.10', 100, '1000.0000')).toMatchObject({ price: '1.08500', margin: '108.5000' });
  });

  it('converts a USD/JPY order by its own open price, and a cross by the rate given, rounding margin and spread up', () => {
    const usdjpy = {
      ...eurusd,
      symbol: 'USD/JPY',
      digits: 3,
      bid: '157.120',
      ask: '157.140',
      conversion: { op: 'div' as const, rate: '157.13' },
    };
    // 100 000 × 157.140 ÷ (100 × 157.140) = 1000 exactly; 100 000 × 0.020 ÷ 157.140 = 12.72750…
    expect(openPreview(usdjpy, 'buy', '1', 100, '5000.0000')).toEqual({
      price: '157.140',
      margin: '1000.0000',
      spreadCost: '12.7276',
      freeMarginAfter: '4000.0000',
      enough: true,
    });
    // EUR/JPY converts by the USD/JPY rate the products call gives: 100 000 × 170.000 ÷ (100 × 157.13) = 1081.9067…
    const eurjpy = { ...usdjpy, symbol: 'EUR/JPY', bid: '169.980', ask: '170.000' };
    expect(openPreview(eurjpy, 'buy', '1', 100, '5000.0000')).toMatchObject({ margin: '1081.9068' });
    expect(openPreview({ ...eurjpy, conversion: null }, 'buy', '1', 100, '5000.0000')).toBeNull();
  });

  it('prices gold with two digits and a contract of 100 ounces', () => {
    const gold = { ...eurusd, digits: 2, contractSize: '100', bid: '1950.25', ask: '1950.55' };
    // 0.5 × 100 × 1950.55 ÷ 50 = 1950.55; spread 50 × 0.30 = 15
    expect(openPreview(gold, 'buy', '0.5', 50, '1000.0000')).toEqual({
      price: '1950.55',
      margin: '1950.5500',
      spreadCost: '15.0000',
      freeMarginAfter: '-950.5500',
      enough: false,
    });
  });

  it('shows nothing for lots the product refuses or without a price, and says when the margin is short', () => {
    expect(openPreview(eurusd, 'buy', '0.005', 100, '1000.0000')).toBeNull();
    expect(openPreview(eurusd, 'buy', '20', 100, '1000.0000')).toBeNull();
    expect(openPreview({ ...eurusd, bid: null, ask: null }, 'buy', '0.1', 100, '1000.0000')).toBeNull();
    const short = openPreview(eurusd, 'buy', '0.1', 100, '100.0000');
    expect(marginProblem(short, '100.0000', 'en')).toBe(
      translate('en', 'contracts.insufficient_margin', { required: '108.5200', available: '100.0000' }),
    );
    expect(marginProblem(openPreview(eurusd, 'buy', '0.1', 100, '1000.0000'), '1000.0000', 'en')).toBeNull();
  });
});

describe('lots, in the server words', () => {
  it('refuses a format, a size outside the limits and a size off the step', () => {
    expect(lotsProblem('0.005', eurusd, 'en')).toBe(
      translate('en', 'field_error', { field: translate('en', 'field.lots'), reason: translate('en', 'reason.lots') }),
    );
    expect(lotsProblem('', eurusd, 'ja')).toBe(translate('ja', 'reason.required', { field: translate('ja', 'field.lots') }));
    expect(lotsProblem('20', eurusd, 'en')).toBe(translate('en', 'contracts.lots_out_of_range', { min: '0.01', max: '10' }));
    const stepped = { minLots: '0.10', lotStep: '0.05', maxLots: '5.00' };
    expect(lotsProblem('0.12', stepped, 'ja')).toBe(translate('ja', 'contracts.lots_off_step', { step: '0.05', min: '0.1' }));
    expect(lotsProblem('0.15', stepped, 'en')).toBeNull();
  });

  it('closes all of an order, or a part on the step that leaves at least the minimum', () => {
    const open = { lots: '1.00' };
    const limits = { minLots: '0.10', lotStep: '0.10' };
    expect(closeLotsProblem('1', open, limits, 'en')).toBeNull();
    expect(closeLotsProblem('0.5', open, limits, 'en')).toBeNull();
    expect(closeLotsProblem('1.5', open, limits, 'en')).toBe(translate('en', 'contracts.close_lots_too_large', { lots: '1' }));
    expect(closeLotsProblem('0.95', open, limits, 'en')).toBe(
      translate('en', 'contracts.close_leaves_too_little', { min: '0.1' }),
    );
    expect(closeLotsProblem('0.55', open, limits, 'en')).toBe(
      translate('en', 'contracts.lots_off_step', { step: '0.1', min: '0.1' }),
    );
  });
});

describe('take-profit and stop-loss against the price the order would close at', () => {
  const quote = { bid: '1.08500', ask: '1.08520' };
  const product = { symbol: 'EUR/USD', digits: 5 };

  it('wants a buy’s take-profit above the bid and its stop-loss below', () => {
    expect(targetProblems('buy', quote, product, { takeProfit: '1.08600', stopLoss: '1.08400' }, 'en')).toEqual({});
    expect(targetProblems('buy', quote, product, { takeProfit: '1.08400', stopLoss: '1.08600' }, 'ko')).toEqual({
      takeProfit: translate('ko', 'contracts.take_profit_wrong_side'),
      stopLoss: translate('ko', 'contracts.stop_loss_wrong_side'),
    });
    // At the price itself is the wrong side too: it would fire at once.
    expect(targetProblems('buy', quote, product, { takeProfit: '1.085', stopLoss: '' }, 'en').takeProfit).toBe(
      translate('en', 'contracts.take_profit_wrong_side'),
    );
  });

  it('wants a sell’s take-profit below the ask and its stop-loss above', () => {
    expect(targetProblems('sell', quote, product, { takeProfit: '1.08400', stopLoss: '1.08600' }, 'en')).toEqual({});
    expect(targetProblems('sell', quote, product, { takeProfit: '1.08600', stopLoss: '' }, 'en')).toEqual({
      takeProfit: translate('en', 'contracts.take_profit_wrong_side'),
    });
  });

  it('refuses a price that is not one, or with more places than the product’s digits; empty is none', () => {
    expect(targetProblems('buy', quote, product, { takeProfit: '', stopLoss: '' }, 'en')).toEqual({});
    expect(targetProblems('buy', quote, product, { takeProfit: 'abc', stopLoss: '1.084001' }, 'th')).toEqual({
      takeProfit: translate('th', 'field_error', {
        field: translate('th', 'field.takeProfit'),
        reason: translate('th', 'reason.price'),
      }),
      stopLoss: translate('th', 'contracts.price_digits', { symbol: 'EUR/USD', digits: 5 }),
    });
    // Without a quote only the format is checked (the server checks the side).
    expect(targetProblems('buy', null, product, { takeProfit: '1.08400', stopLoss: '' }, 'en')).toEqual({});
  });
});

describe('live P&L', () => {
  it('values a buy at the bid and a sell at the ask, with the swap', () => {
    const moved = { ...eurusd, bid: '1.08620', ask: '1.08640' };
    // buy: (1.08620 − 1.08520) × 10 000 = 10; swap −0.35
    expect(liveOrder(order({ swap: '-0.3500' }), moved)).toEqual({ closePrice: '1.08620', pnl: '9.6500' });
    // sell: (1.08500 − 1.08640) × 10 000 = −14
    expect(liveOrder(order({ side: 'sell', openPrice: '1.08500' }), moved)).toEqual({ closePrice: '1.08640', pnl: '-14.0000' });
    // USD/JPY is valued by its own close price: 100 000 × (157.340 − 157.140) ÷ 157.340 = 127.11325…, rounded down.
    const usdjpy = { ...eurusd, bid: '157.340', ask: '157.360', conversion: null };
    expect(liveOrder(order({ symbol: 'USD/JPY', lots: '1.00', openPrice: '157.140' }), usdjpy)).toEqual({
      closePrice: '157.340',
      pnl: '127.1132',
    });
    // Without a quote the server's figures stay.
    expect(liveOrder(order({}), undefined)).toEqual({ closePrice: '1.08500', pnl: '-2.0000' });
  });

  it('estimates a partial close and sums the account', () => {
    const moved = { ...eurusd, bid: '1.08620', ask: '1.08640' };
    expect(closeEstimate(order({ lots: '0.20' }), moved, '0.05')).toBe('5.0000');
    expect(closeEstimate(order({ lots: '0.20' }), moved, '0.30')).toBeNull();
    const products = [{ ...moved, id: 'eurusd' }] as unknown as Parameters<typeof liveAccount>[2];
    const orders = [order({}), order({ id: 'o2', side: 'sell', openPrice: '1.08500' })];
    expect(liveAccount({ usedMargin: '217.0200', floatingPnl: '0.0000' }, orders, products)).toEqual({
      floatingPnl: '-4.0000',
      equity: '213.0200',
    });
  });

  it('applies a streamed quote to its product, never an older one', () => {
    const products = [
      { id: 'a', bid: '1.1', ask: '1.2', quotedAt: '2026-11-27T01:00:01.000Z', stale: true },
      { id: 'b', bid: '2.1', ask: '2.2', quotedAt: null, stale: false },
    ];
    const next = applyQuote(products, { productId: 'a', bid: '1.3', ask: '1.4', quotedAt: '2026-11-27T01:00:02.000Z' });
    expect(next[0]).toEqual({ id: 'a', bid: '1.3', ask: '1.4', quotedAt: '2026-11-27T01:00:02.000Z', stale: false });
    expect(next[1]).toBe(products[1]);
    expect(applyQuote(next, { productId: 'a', bid: '9', ask: '9.1', quotedAt: '2026-11-27T01:00:00.000Z' })[0]?.bid).toBe('1.3');
  });
});

describe('display', () => {
  it('writes lots, prices and the direction of a P&L', () => {
    expect(displayLots('0.10')).toBe('0.1');
    expect(displayLots('2.00')).toBe('2');
    expect(displayPrice('1950.25')).toBe('1,950.25');
    expect(displayPrice('157.123')).toBe('157.123');
    expect(displayPrice(null)).toBe('—');
    expect(pnlDirection('-1.0000')).toBe('down');
    expect(pnlDirection('0.0000')).toBe('flat');
    expect(pnlDirection('0.0100')).toBe('up');
  });

  it('summarises trading hours by grouping days, or none when always open', () => {
    expect(sessionsSummary(ALWAYS_OPEN_SESSIONS, 'en')).toBeNull();
    expect(sessionsSummary(FOREX_WEEK_SESSIONS, 'en')).toBe('Mon–Thu 00:00–24:00 · Fri 00:00–22:00');
  });
});
