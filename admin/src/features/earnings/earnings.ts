import { setDividendPoolRequest, type DividendPool } from '@custos/contract';
import { isIsoDate } from '../../lib/dates';
import { toMoneyString } from '../../lib/decimal';

/** A pool waits for its day's settlement, then is shared out among that day's valid members. */
export type PoolState = 'waiting' | 'shared';

export function poolState(pool: Pick<DividendPool, 'distributed'>): PoolState {
  return pool.distributed === null ? 'waiting' : 'shared';
}

export const POOL_STATE_LABELS: Record<PoolState, string> = { waiting: 'Waiting for settlement', shared: 'Shared out' };
/** antd Tag colours. */
export const POOL_STATE_COLOURS: Record<PoolState, string> = { waiting: 'gold', shared: 'green' };

/** Only a pool not shared out yet may be changed (the server refuses the others). */
export function mayChangePool(pool: Pick<DividendPool, 'distributed'>): boolean {
  return poolState(pool) === 'waiting';
}

/** Pools newest day first. */
export function sortPools<T extends Pick<DividendPool, 'day'>>(pools: readonly T[]): T[] {
  return [...pools].sort((a, b) => b.day.localeCompare(a.day));
}

/** The pool form: the day and the amount as typed. */
export interface PoolForm {
  day: string;
  amount: string;
}

export const EMPTY_POOL_FORM: PoolForm = { day: '', amount: '' };

/**
 * The form as the call the server takes: a real calendar day, and the amount checked with the
 * contract's `setDividendPoolRequest` and written with four places. Otherwise each field's problem.
 */
export function toPoolRequest(
  form: PoolForm,
): { day: string; amount: string } | { problems: Partial<Record<keyof PoolForm, string>> } {
  const problems: Partial<Record<keyof PoolForm, string>> = {};
  const day = form.day.trim();
  if (!isIsoDate(day)) problems.day = 'Choose the platform day the pool is for';
  const amount = toMoneyString(form.amount) ?? form.amount.trim();
  const parsed = setDividendPoolRequest.safeParse({ amount });
  if (!parsed.success) problems.amount = 'Enter a positive USDT amount with at most 4 decimal places';
  if (problems.day || problems.amount || !parsed.success) return { problems };
  return { day, amount: parsed.data.amount };
}
