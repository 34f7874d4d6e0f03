import {
  quoteExchange,
  money,
  type Asset,
  type ExchangeDirection,
  type ExchangeIndex,
  type ExchangeQuote,
  type Locale,
  type Money,
} from '@custos/contract';
import { translate } from '../../lib/i18n/server-messages';
import { balanceProblem } from '../../lib/money/amount';

/** What each direction spends and receives. */
export const DIRECTION_ASSETS: Record<ExchangeDirection, { from: 'USDT' | 'RAB'; to: 'USDT' | 'RAB' }> = {
  rab_to_usdt: { from: 'RAB', to: 'USDT' },
  usdt_to_rab: { from: 'USDT', to: 'RAB' },
};

/** The smallest amount the operator accepts for a direction, in the asset spent. */
export function minimumOf(direction: ExchangeDirection, index: Pick<ExchangeIndex, 'minRab' | 'minUsdt'>): string {
  return direction === 'rab_to_usdt' ? index.minRab : index.minUsdt;
}

/** How much of the asset spent the member has. */
export function spendableOf(direction: ExchangeDirection, index: Pick<ExchangeIndex, 'available'>): string {
  return index.available[DIRECTION_ASSETS[direction].from];
}

export type ExchangePreview = { quote: ExchangeQuote } | { problem: string };

/**
 * The quote for an amount with the contract's own arithmetic (the server recomputes it): the fee is
 * paid from FUEL first. A refusal carries the server's message for the same case.
 */
export function previewExchange(
  direction: ExchangeDirection,
  amount: Money,
  index: ExchangeIndex,
  locale: Locale,
): ExchangePreview {
  const fuel = money.parseMoney(index.available.FUEL);
  const quoted = quoteExchange(direction, amount, index, fuel);
  if ('problem' in quoted) {
    if (quoted.problem === 'nothing_received') return { problem: translate(locale, 'exchange.nothing_received') };
    return {
      problem: translate(locale, 'exchange.below_minimum', {
        minimum: minimumOf(direction, index),
        asset: DIRECTION_ASSETS[direction].from,
      }),
    };
  }
  const from: Asset = DIRECTION_ASSETS[direction].from;
  const short = balanceProblem(amount, spendableOf(direction, index), from, locale);
  return short ? { problem: short } : quoted;
}
