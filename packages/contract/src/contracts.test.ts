import { describe, expect, it } from 'vitest';
import {
  ALWAYS_OPEN_SESSIONS,
  FOREX_WEEK_SESSIONS,
  PAR_CONVERSION,
  contractBelowStopOut,
  contractClosePrice,
  contractLotsLeft,
  contractLotsProblem,
  contractMargin,
  contractMarginLevel,
  contractMarketOpen,
  contractMid,
  contractOpenPrice,
  contractOpenRequest,
  contractPnl,
  contractProductSettingsSchema,
  contractQuote,
  contractSettledPnl,
  contractShare,
  contractSpreadCost,
  contractStopOutOrder,
  contractSwap,
  contractTargetsProblem,
  contractTriggered,
  manualContractQuoteRequest,
} from './index.js';

// Every expected figure below was worked by hand (decision 034 states the rounding).
const EURUSD = { contractSize: '100000', conversion: PAR_CONVERSION };
const XAUUSD = { contractSize: '100', conversion: PAR_CONVERSION };
const usdjpy = (rate: string) => ({ contractSize: '100000', conversion: { op: 'div' as const, rate } });

describe('contract margin', () => {
  it('is lots × size × price ÷ leverage in USDT, rounded up', () => {
    // 1 × 100 000 × 1.08512 = 108 512 USD; ÷ 100 = 1 085.12.
    expect(contractMargin({ ...EURUSD, lots: '1.00', price: '1.08512', leverage: 100 })).toBe('1085.1200');
    // 0.37 × 100 000 × 1.08517 = 40 151.29; ÷ 200 = 200.75645 → up to 200.7565.
    expect(contractMargin({ ...EURUSD, lots: '0.37', price: '1.08517', leverage: 200 })).toBe('200.7565');
  });

  it('converts a JPY-quoted pair through its own price (the price cancels out for USD/JPY)', () => {
    // 0.5 × 100 000 × 150.123 JPY ÷ 50 ÷ 150.123 = 1 000 USD.
    expect(contractMargin({ ...usdjpy('150.123'), lots: '0.50', price: '150.123', leverage: 50 })).toBe('1000.0000');
  });

  it('handles gold with two price digits and 100 oz a lot', () => {
    // 0.1 × 100 × 2 350.45 = 23 504.5; ÷ 20 = 1 175.225.
    expect(contractMargin({ ...XAUUSD, lots: '0.10', price: '2350.45', leverage: 20 })).toBe('1175.2250');
  });
});

describe('spread', () => {
  it('marks the raw quote up by whole points, half on each side, rounding away from the member', () => {
    // bid 1.085004 → 1.08500 − 1 point; ask 1.085116 → 1.08512 + 2 points.
    expect(contractQuote('1.085004', '1.085116', 5, 3)).toEqual({ bid: '1.08499', ask: '1.08514' });
    expect(contractQuote('150.11', '150.123', 3, 0)).toEqual({ bid: '150.110', ask: '150.123' });
    expect(contractQuote('2350.2', '2350.45', 2, 4)).toEqual({ bid: '2350.18', ask: '2350.47' });
    expect(contractMid('1.08500', '1.08513', 5)).toBe('1.08507');
  });

  it('costs lots × size × (ask − bid) in USDT, rounded up', () => {
    // 1 × 100 000 × 0.00012 = 12.
    expect(contractSpreadCost({ ...EURUSD, lots: '1.00', bid: '1.08500', ask: '1.08512' })).toBe('12.0000');
    // 0.5 × 100 000 × 0.013 = 650 JPY ÷ 150.123 = 4.32978… → 4.3298.
    expect(contractSpreadCost({ ...usdjpy('150.123'), lots: '0.50', bid: '150.110', ask: '150.123' })).toBe('4.3298');
    // 0.1 × 100 × 0.25 = 2.5.
    expect(contractSpreadCost({ ...XAUUSD, lots: '0.10', bid: '2350.20', ask: '2350.45' })).toBe('2.5000');
  });

  it('opens a buy at ask and a sell at bid, and closes the other way', () => {
    const quote = { bid: '1.08500', ask: '1.08512' };
    expect(contractOpenPrice('buy', quote)).toBe('1.08512');
    expect(contractOpenPrice('sell', quote)).toBe('1.08500');
    expect(contractClosePrice('buy', quote)).toBe('1.08500');
    expect(contractClosePrice('sell', quote)).toBe('1.08512');
  });
});

describe('profit and loss', () => {
  it('is (close − open) for a buy and (open − close) for a sell', () => {
    // Buy 1 lot 1.08512 → 1.08712: +0.002 × 100 000 = +200.
    expect(contractPnl({ ...EURUSD, side: 'buy', lots: '1.00', openPrice: '1.08512', closePrice: '1.08712' })).toBe('200.0000');
    // Sell 1 lot 1.08500 → 1.08712: −0.00212 × 100 000 = −212.
    expect(contractPnl({ ...EURUSD, side: 'sell', lots: '1.00', openPrice: '1.08500', closePrice: '1.08712' })).toBe('-212.0000');
    // Sell 0.33 lots 1.08501 → 1.08437: 0.00064 × 33 000 = +21.12.
    expect(contractPnl({ ...EURUSD, side: 'sell', lots: '0.33', openPrice: '1.08501', closePrice: '1.08437' })).toBe('21.1200');
  });

  it('converts JPY at the close price, rounding toward minus infinity', () => {
    // Buy 0.5 × 100 000 × (150.623 − 150.123) = 25 000 JPY ÷ 150.623 = 165.977307… → 165.9773.
    expect(contractPnl({ ...usdjpy('150.623'), side: 'buy', lots: '0.50', openPrice: '150.123', closePrice: '150.623' })).toBe(
      '165.9773',
    );
    // Sell 0.5 × 100 000 × (150.110 − 150.623) = −25 650 JPY ÷ 150.623 = −170.292717… → −170.2928.
    expect(contractPnl({ ...usdjpy('150.623'), side: 'sell', lots: '0.50', openPrice: '150.110', closePrice: '150.623' })).toBe(
      '-170.2928',
    );
  });

  it('handles gold', () => {
    // Buy 0.1 × 100 × (2 341.20 − 2 350.45) = −92.5.
    expect(contractPnl({ ...XAUUSD, side: 'buy', lots: '0.10', openPrice: '2350.45', closePrice: '2341.20' })).toBe('-92.5000');
  });

  it('settles P&L and swap in full: the margin does not cap a loss (decision 049)', () => {
    expect(contractSettledPnl('-1200.0000', '-3.0000', '1085.1200')).toBe('-1203.0000');
    expect(contractSettledPnl('50.0000', '-1.5000', '1085.1200')).toBe('48.5000');
    expect(contractSettledPnl('-1085.1200', '0.0000', '1085.1200')).toBe('-1085.1200');
  });

  it('charges or pays swap on the position value', () => {
    // 1 × 100 000 × 1.08500 × −0.01 % = −10.85.
    expect(contractSwap({ ...EURUSD, lots: '1.00', price: '1.08500', dailyPct: '-0.01' })).toBe('-10.8500');
    // 0.1 × 100 × 2 350.45 × 0.0033 % = 0.7756485 → 0.7756 (a credit rounds down).
    expect(contractSwap({ ...XAUUSD, lots: '0.10', price: '2350.45', dailyPct: '0.0033' })).toBe('0.7756');
  });
});

describe('partial close', () => {
  it('takes a proportional share of the margin, rounded toward zero, and all of it on a full close', () => {
    // 1 085.12 × 0.30 ÷ 1.00 = 325.536.
    expect(contractShare('1085.1200', '0.30', '1.00')).toBe('325.5360');
    // 200.7565 × 0.33 ÷ 0.37 = 179.053094… → 179.0530.
    expect(contractShare('200.7565', '0.33', '0.37')).toBe('179.0530');
    expect(contractShare('200.7565', '0.37', '0.37')).toBe('200.7565');
    // A negative swap's share rounds toward zero too: −1.00 × 1 ÷ 3 = −0.3333.
    expect(contractShare('-1.0000', '0.01', '0.03')).toBe('-0.3333');
    expect(contractLotsLeft('0.37', '0.33')).toBe('0.04');
  });
});

describe('margin level and stop-out', () => {
  it('is equity ÷ margin × 100, two places rounded down; stop-out is strictly below the level', () => {
    expect(contractMarginLevel('542.5600', '1085.1200')).toBe('50.00');
    expect(contractMarginLevel('542.5500', '1085.1200')).toBe('49.99');
    expect(contractMarginLevel('0.0000', '0.0000')).toBeNull();
    expect(contractBelowStopOut('50.00', '50')).toBe(false);
    expect(contractBelowStopOut('49.99', '50')).toBe(true);
    expect(contractBelowStopOut(null, '50')).toBe(false);
  });

  it('closes the biggest loser first, then the oldest', () => {
    const orders = [
      { orderNo: 'C1', pnl: '-100.0000', swap: '0.0000', openedAt: '2026-01-01T00:00:00.000Z' },
      { orderNo: 'C2', pnl: '-300.0000', swap: '0.0000', openedAt: '2026-01-02T00:00:00.000Z' },
      { orderNo: 'C3', pnl: '50.0000', swap: '0.0000', openedAt: '2026-01-03T00:00:00.000Z' },
      { orderNo: 'C4', pnl: '-99.0000', swap: '-1.0000', openedAt: '2025-12-31T00:00:00.000Z' },
    ];
    expect(contractStopOutOrder(orders).map((order) => order.orderNo)).toEqual(['C2', 'C4', 'C1', 'C3']);
  });
});

describe('lots, targets and hours', () => {
  const limits = { minLots: '0.10', lotStep: '0.05', maxLots: '50.00' };
  it('checks the step from the minimum and the limits', () => {
    expect(contractLotsProblem('0.15', limits)).toBeNull();
    expect(contractLotsProblem('0.12', limits)).toBe('lots_off_step');
    expect(contractLotsProblem('0.05', limits)).toBe('lots_out_of_range');
    expect(contractLotsProblem('60', limits)).toBe('lots_out_of_range');
    expect(contractLotsProblem('50', limits)).toBeNull();
  });

  it('wants take-profit beyond and stop-loss short of the close price', () => {
    const quote = { bid: '1.08500', ask: '1.08512' };
    expect(contractTargetsProblem('buy', quote, { takeProfit: '1.08400', stopLoss: null })).toBe('take_profit_wrong_side');
    expect(contractTargetsProblem('buy', quote, { takeProfit: '1.08500', stopLoss: null })).toBe('take_profit_wrong_side');
    expect(contractTargetsProblem('buy', quote, { takeProfit: null, stopLoss: '1.08600' })).toBe('stop_loss_wrong_side');
    expect(contractTargetsProblem('buy', quote, { takeProfit: '1.09', stopLoss: '1.08' })).toBeNull();
    expect(contractTargetsProblem('sell', quote, { takeProfit: '1.08600', stopLoss: null })).toBe('take_profit_wrong_side');
    expect(contractTargetsProblem('sell', quote, { takeProfit: '1.08', stopLoss: '1.09' })).toBeNull();
  });

  it('fires a target when the close price reaches it', () => {
    expect(contractTriggered('buy', '1.08600', { takeProfit: '1.08600', stopLoss: '1.08000' })).toBe('take_profit');
    expect(contractTriggered('buy', '1.08000', { takeProfit: '1.08600', stopLoss: '1.08000' })).toBe('stop_loss');
    expect(contractTriggered('buy', '1.08300', { takeProfit: '1.08600', stopLoss: '1.08000' })).toBeNull();
    expect(contractTriggered('sell', '1.08000', { takeProfit: '1.08000', stopLoss: '1.09000' })).toBe('take_profit');
    expect(contractTriggered('sell', '1.09001', { takeProfit: '1.08000', stopLoss: '1.09000' })).toBe('stop_loss');
  });

  it('knows the trading hours in UTC', () => {
    const monday = new Date('2026-11-23T10:00:00Z');
    const sunday = new Date('2026-11-22T10:00:00Z');
    expect(contractMarketOpen(FOREX_WEEK_SESSIONS, monday)).toBe(true);
    expect(contractMarketOpen(FOREX_WEEK_SESSIONS, sunday)).toBe(false);
    expect(contractMarketOpen(FOREX_WEEK_SESSIONS, new Date('2026-11-27T22:00:00Z'))).toBe(false);
    expect(contractMarketOpen(FOREX_WEEK_SESSIONS, new Date('2026-11-27T21:59:00Z'))).toBe(true);
    expect(contractMarketOpen(ALWAYS_OPEN_SESSIONS, sunday)).toBe(true);
    expect(contractMarketOpen([], monday)).toBe(false);
  });
});

describe('contract schemas', () => {
  it('refuses lots with three places and a bid above the ask', () => {
    const base = {
      productId: '7d5c1a5e-4b8f-4c61-9b7e-0a4c6a1b2c3d',
      side: 'buy',
      leverage: 100,
      idempotencyKey: 'key-12345678',
    };
    expect(contractOpenRequest.safeParse({ ...base, lots: '0.015' }).success).toBe(false);
    const parsed = contractOpenRequest.parse({ ...base, lots: '0.10', takeProfit: '' });
    expect(parsed.takeProfit).toBeNull();
    expect(parsed.stopLoss).toBeNull();
    expect(manualContractQuoteRequest.safeParse({ bid: '1.1', ask: '1.0' }).success).toBe(false);
  });

  it('sorts leverages and checks the lot limits', () => {
    const settings = {
      digits: 5,
      contractSize: '100000',
      leverages: [200, 10, 100],
      minLots: '0.01',
      lotStep: '0.01',
      maxLots: '50',
      spreadMarkupPoints: 10,
      sessions: ALWAYS_OPEN_SESSIONS,
      swapEnabled: false,
      swapLongPct: '-0.01',
      swapShortPct: '0.002',
      tradingEnabled: true,
    };
    expect(contractProductSettingsSchema.parse(settings).leverages).toEqual([10, 100, 200]);
    expect(contractProductSettingsSchema.safeParse({ ...settings, minLots: '60' }).success).toBe(false);
    expect(
      contractProductSettingsSchema.safeParse({ ...settings, sessions: [{ day: 1, open: '10:00', close: '09:00' }] }).success,
    ).toBe(false);
  });
});
