import { INCOME_TYPES, type IncomeItem, type IncomeType } from '@custos/contract';
import type { Page } from '../../lib/paging/pages';

export type IncomeState = IncomeItem['state'];

/** antd-mobile Tag colours. */
export type TagColor = 'default' | 'primary' | 'success' | 'warning' | 'danger';

/** On its way is amber, arrived is done (green). */
export const INCOME_STATE_COLOURS: Record<IncomeState, TagColor> = { to_arrive: 'warning', arrived: 'success' };

/** The locale key of a state tag: "To arrive", "Arrived". */
export function incomeStateKey(state: IncomeState): `income.state.${IncomeState}` {
  return `income.state.${state}`;
}

/** The locale key of a type: "Custody interest", "Mining output", … */
export function incomeTypeKey(type: IncomeType): `income.types.${IncomeType}` {
  return `income.types.${type}`;
}

export const ALL_TYPES = 'all';
export type TypeFilter = IncomeType | typeof ALL_TYPES;

export interface TypeOption {
  value: TypeFilter;
  /** Types that do not exist yet are listed, but cannot be chosen. */
  disabled: boolean;
}

/**
 * The type filter: "All", then every type the server lists in the contract's order, those not
 * available yet disabled. Before the list arrives (or if it cannot be loaded) only "All".
 */
export function typeOptions(types: readonly { type: IncomeType; available: boolean }[] | null): TypeOption[] {
  const availability = new Map((types ?? []).map((entry) => [entry.type, entry.available]));
  return [
    { value: ALL_TYPES, disabled: false },
    ...INCOME_TYPES.filter((type) => availability.has(type)).map((type) => ({ value: type, disabled: !availability.get(type) })),
  ];
}

export type IncomeRow = IncomeItem & { id: string };

/**
 * Income lines have no id of their own. What they say names them, with a count for identical lines
 * on the same page (two orders of the same plan and amount earn the same on the same day), so a line
 * pushed onto the next page by a new one, or claimed meanwhile, is not shown twice while paging.
 */
export function withIncomeIds(page: Page<IncomeItem>): Page<IncomeRow> {
  const seen = new Map<string, number>();
  return {
    ...page,
    items: page.items.map((item) => {
      const key = [item.type, item.day, item.source, item.asset, item.amount, item.team?.level ?? ''].join('|');
      const count = seen.get(key) ?? 0;
      seen.set(key, count + 1);
      return { ...item, id: `${key}#${count}` };
    }),
  };
}
