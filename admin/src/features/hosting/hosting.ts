import { z } from 'zod';
import {
  hostingPlanInput,
  money,
  quoteHosting,
  type adminHostingOrderSchema,
  type adminHostingPlansResponse,
  type HOSTING_PLAN_STATUSES,
  type HostingOrderStatus,
  type HostingPlan,
  type SettlementRun,
} from '@custos/contract';
import { fractionToPercent, toMoneyString } from '../../lib/decimal';

export type HostingPlanInput = z.infer<typeof hostingPlanInput>;
/** A plan as the console lists it: with the number of orders still running on it. */
export type AdminHostingPlan = z.infer<typeof adminHostingPlansResponse>[number];
/** An order as the console lists it: with the member's e-mail and account. */
export type AdminHostingOrder = z.infer<typeof adminHostingOrderSchema>;
export type HostingPlanStatus = (typeof HOSTING_PLAN_STATUSES)[number];

// ── Statuses ─────────────────────────────────────────────────────────────────────────────────────

export const PLAN_STATUS_LABELS: Record<HostingPlanStatus, string> = { active: 'Open', retired: 'Retired' };
/** antd Tag colours. */
export const PLAN_STATUS_COLOURS: Record<HostingPlanStatus, string> = { active: 'green', retired: 'default' };

export const ORDER_STATUS_LABELS: Record<HostingOrderStatus, string> = {
  active: 'In progress',
  expired: 'Expired',
  redeemed: 'Redeemed early',
};
export const ORDER_STATUS_COLOURS: Record<HostingOrderStatus, string> = {
  active: 'blue',
  expired: 'green',
  redeemed: 'orange',
};

export const RUN_STATUS_LABELS: Record<SettlementRun['status'], string> = {
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
};
export const RUN_STATUS_COLOURS: Record<SettlementRun['status'], string> = {
  running: 'blue',
  completed: 'green',
  failed: 'red',
};

/** "0.0012" → "0.12 %": a fraction as a percentage, exactly (never a float); the text itself if it is not a decimal. */
export function percentText(fraction: string): string {
  const percent = fractionToPercent(fraction);
  return percent === null ? fraction : `${percent} %`;
}

// ── Plan form ────────────────────────────────────────────────────────────────────────────────────

/** The plan form: every field as typed. */
export interface PlanForm {
  name: string;
  periodDays: string;
  dailyRate: string;
  minAmount: string;
  maxAmount: string;
  earlyPenaltyRate: string;
  autoRenewAllowed: boolean;
}

export const PLAN_FIELD_LABELS: Record<keyof PlanForm, string> = {
  name: 'Name',
  periodDays: 'Period (days)',
  dailyRate: 'Daily rate',
  minAmount: 'Minimum amount',
  maxAmount: 'Maximum amount',
  earlyPenaltyRate: 'Early-redemption penalty',
  autoRenewAllowed: 'Auto-renew allowed',
};

export const EMPTY_PLAN_FORM: PlanForm = {
  name: '',
  periodDays: '',
  dailyRate: '',
  minAmount: '',
  maxAmount: '',
  earlyPenaltyRate: '',
  autoRenewAllowed: true,
};

export function planToForm(plan: HostingPlan): PlanForm {
  return {
    name: plan.name,
    periodDays: String(plan.periodDays),
    dailyRate: plan.dailyRate,
    minAmount: plan.minAmount,
    maxAmount: plan.maxAmount,
    earlyPenaltyRate: plan.earlyPenaltyRate,
    autoRenewAllowed: plan.autoRenewAllowed,
  };
}

const AMOUNT_PROBLEM = 'Enter a positive amount with at most 4 decimal places';

/** What to tell the operator for a field the contract's `hostingPlanInput` refused. */
function fieldProblem(field: keyof PlanForm, reason: string): string {
  switch (field) {
    case 'name':
      return reason === 'too_long' ? 'At most 40 characters' : 'Enter the name members see';
    case 'periodDays':
      return 'Enter a whole number of days from 1 to 3650';
    case 'dailyRate':
      return 'Enter the interest per day as a fraction with at most 8 decimal places, e.g. 0.0012 for 0.12 %';
    case 'minAmount':
      return AMOUNT_PROBLEM;
    case 'maxAmount':
      // The contract's cross-field check: the maximum must not be below the minimum.
      return reason === 'invalid' ? 'The maximum must not be less than the minimum' : AMOUNT_PROBLEM;
    case 'earlyPenaltyRate':
      return 'Enter a fraction below 1 with at most 8 decimal places, e.g. 0.05 for 5 % (0 for none)';
    case 'autoRenewAllowed':
      return 'Choose whether orders may renew';
  }
}

function isPlanField(field: unknown): field is keyof PlanForm {
  return typeof field === 'string' && field in PLAN_FIELD_LABELS;
}

/**
 * The form as the body the server takes, checked with the contract's own `hostingPlanInput`: amounts
 * written with four places, the period a whole number. Otherwise the first problem of each field.
 */
export function toPlanInput(form: PlanForm): { input: HostingPlanInput } | { problems: Partial<Record<keyof PlanForm, string>> } {
  const period = form.periodDays.trim();
  const amount = (text: string) => toMoneyString(text) ?? text.trim();
  const candidate = {
    name: form.name.trim(),
    periodDays: /^\d{1,6}$/.test(period) ? Number(period) : period,
    dailyRate: form.dailyRate.trim(),
    minAmount: amount(form.minAmount),
    maxAmount: amount(form.maxAmount),
    earlyPenaltyRate: form.earlyPenaltyRate.trim(),
    autoRenewAllowed: form.autoRenewAllowed,
  };
  // The fields first, without the contract's cross-field checks: those parse the amounts as money
  // and throw on an amount that is not one (e.g. five decimal places) instead of refusing it.
  const fields = z.object(hostingPlanInput.shape).safeParse(candidate);
  const parsed = fields.success ? hostingPlanInput.safeParse(candidate) : fields;
  if (parsed.success) return { input: parsed.data };
  const problems: Partial<Record<keyof PlanForm, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (!isPlanField(field) || problems[field]) continue;
    problems[field] = fieldProblem(field, issue.message);
  }
  return { problems };
}

export const EXAMPLE_AMOUNT = '1000.0000';

/**
 * What a deposit of `amount` would earn at these terms (the contract's `quoteHosting`, which the
 * server pays: the daily interest rounded down, times the days) and what early redemption would keep.
 */
export function planExample(
  input: Pick<HostingPlanInput, 'dailyRate' | 'periodDays' | 'earlyPenaltyRate'>,
  amount: string = EXAMPLE_AMOUNT,
): { amount: string; daily: string; total: string; penalty: string } {
  const principal = money.parseMoney(amount);
  const { dailyInterest, totalInterest } = quoteHosting(principal, input);
  return {
    amount,
    daily: money.formatMoney(dailyInterest),
    total: money.formatMoney(totalInterest),
    penalty: money.formatMoney(money.multiply(principal, input.earlyPenaltyRate, 'up')),
  };
}

// ── Settlement ───────────────────────────────────────────────────────────────────────────────────

/** Only failed days are offered again from the table; a missed day is run from the date field. */
export function canRerun(run: Pick<SettlementRun, 'status'>): boolean {
  return run.status === 'failed';
}

/** A calendar date as the server takes it ('2026-11-21'). */
export { isIsoDate } from '../../lib/dates';

/** Runs newest day first. */
export function sortRuns<T extends Pick<SettlementRun, 'day'>>(runs: readonly T[]): T[] {
  return [...runs].sort((a, b) => b.day.localeCompare(a.day));
}

/** How long a run took, "12.3 s" or "2 min 5 s"; "—" while it runs. */
export function runDuration(run: Pick<SettlementRun, 'startedAt' | 'finishedAt'>): string {
  if (!run.finishedAt) return '—';
  const ms = new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime();
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
