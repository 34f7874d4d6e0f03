import { z } from 'zod';
import * as money from '../money.js';
import type { Money } from '../money.js';
import { ValidationReason, calendarDaySchema, requiredText } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';
import { decimalRateSchema, idempotencyKeySchema, moneyAmountSchema, tradePasswordField } from './ledger.js';

/** A member whose custody balance is at least this (USDT, valued 1:1 in USD) counts as valid (product.md §5). */
export const VALID_CUSTODY_USDT = '500.0000';

export const HOSTING_PLAN_STATUSES = ['active', 'retired'] as const;
/** active: earning; expired: principal returned at the end; redeemed: returned early, less the penalty. */
export const HOSTING_ORDER_STATUSES = ['active', 'expired', 'redeemed'] as const;
export type HostingOrderStatus = (typeof HOSTING_ORDER_STATUSES)[number];

export const hostingPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  periodDays: z.number().int(),
  /** Interest per day as a fraction of the principal ('0.0012' = 0.12 % a day). */
  dailyRate: z.string(),
  minAmount: z.string(),
  maxAmount: z.string(),
  /** Fraction of the principal kept on early redemption. */
  earlyPenaltyRate: z.string(),
  autoRenewAllowed: z.boolean(),
  status: z.enum(HOSTING_PLAN_STATUSES),
});
export type HostingPlan = z.infer<typeof hostingPlanSchema>;

/** GET /api/hosting/config */
export const hostingConfigResponse = z.object({
  plans: z.array(hostingPlanSchema),
  cashBalance: z.string(),
  custodyBalance: z.string(),
  validThreshold: z.string(),
  isValid: z.boolean(),
  timeZone: z.string(),
});
export type HostingConfig = z.infer<typeof hostingConfigResponse>;

/** POST /api/hosting/create */
export const hostingCreateRequest = z.object({
  planId: z.uuid(),
  amount: moneyAmountSchema,
  autoRenew: z.boolean().default(false),
  tradePassword: tradePasswordField,
  idempotencyKey: idempotencyKeySchema,
});

export const hostingOrderSchema = z.object({
  id: z.string(),
  planId: z.string(),
  planName: z.string(),
  amount: z.string(),
  periodDays: z.number().int(),
  dailyRate: z.string(),
  /** The penalty rate this order was made with (plans may change later). */
  earlyPenaltyRate: z.string(),
  /** Platform dates: interest accrues for each day after the start day up to the end day. */
  startDate: z.string(),
  endDate: z.string(),
  createdAt: z.string(),
  daysAccrued: z.number().int(),
  interestSoFar: z.string(),
  status: z.enum(HOSTING_ORDER_STATUSES),
  autoRenew: z.boolean(),
  /** The order this one renewed, if it is a renewal. */
  renewedFromId: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** What came back on redemption or expiry. */
  returnedAmount: z.string().nullable(),
  penalty: z.string().nullable(),
});
export type HostingOrder = z.infer<typeof hostingOrderSchema>;
export const hostingOrderQuery = pageQuery.extend({ status: z.enum(HOSTING_ORDER_STATUSES).optional() });
export const hostingOrdersResponse = pageOf(hostingOrderSchema);

/** POST /api/hosting/sub: early redemption (principal less the penalty back to cash). */
export const hostingRedeemRequest = z.object({ orderId: z.uuid(), tradePassword: tradePasswordField });
/** POST /api/hosting/auto_renew */
export const hostingAutoRenewRequest = z.object({ orderId: z.uuid(), autoRenew: z.boolean() });

export const HOSTING_LOG_EVENTS = [
  'created',
  'accrued',
  'renewed',
  'expired',
  'redeemed',
  'auto_renew_on',
  'auto_renew_off',
] as const;
export const hostingLogItem = z.object({
  event: z.enum(HOSTING_LOG_EVENTS),
  amount: z.string().nullable(),
  day: z.string().nullable(),
  at: z.string(),
});
export type HostingLogItem = z.infer<typeof hostingLogItem>;
/** GET /api/hosting/operator_log?orderId= : the order's own history. */
export const hostingLogQuery = pageQuery.extend({ orderId: z.uuid() });
export const hostingLogResponse = pageOf(hostingLogItem);

/** Interest and end date shown before confirming (the server computes the same). */
export function quoteHosting(
  amount: Money,
  plan: Pick<HostingPlan, 'periodDays' | 'dailyRate'>,
): { dailyInterest: Money; totalInterest: Money } {
  // Interest paid to members rounds down, per day, so the total is exactly days × the daily amount.
  const dailyInterest = money.multiply(amount, plan.dailyRate, 'down');
  return { dailyInterest, totalInterest: money.fromUnits(dailyInterest * BigInt(plan.periodDays)) };
}

// ── Console ──────────────────────────────────────────────────────────────────────────────────────

export const hostingPlanInput = z
  .object({
    name: requiredText(40),
    periodDays: z.number().int().min(1).max(3650),
    dailyRate: decimalRateSchema,
    minAmount: moneyAmountSchema,
    maxAmount: moneyAmountSchema,
    earlyPenaltyRate: decimalRateSchema,
    autoRenewAllowed: z.boolean(),
  })
  .superRefine((plan, context) => {
    // Only compare amounts that are themselves valid (their own checks report the others).
    const minimum = moneyAmountSchema.safeParse(plan.minAmount);
    const maximum = moneyAmountSchema.safeParse(plan.maxAmount);
    if (minimum.success && maximum.success && money.compare(money.parseMoney(minimum.data), money.parseMoney(maximum.data)) > 0) {
      context.addIssue({ code: 'custom', path: ['maxAmount'], message: ValidationReason.invalid });
    }
    if (Number(plan.earlyPenaltyRate) >= 1) {
      context.addIssue({ code: 'custom', path: ['earlyPenaltyRate'], message: ValidationReason.invalid });
    }
  });
export const hostingPlanIdParams = z.object({ id: z.uuid() });
export const adminHostingPlansResponse = z.array(hostingPlanSchema.extend({ activeOrders: z.number().int() }));

export const SETTLEMENT_RUN_STATUSES = ['running', 'completed', 'failed'] as const;
export const settlementRunSchema = z.object({
  day: z.string(),
  status: z.enum(SETTLEMENT_RUN_STATUSES),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  ordersAccrued: z.number().int(),
  interestTotal: z.string(),
  ordersExpired: z.number().int(),
  ordersRenewed: z.number().int(),
  machinesMined: z.number().int(),
  /** RAB produced by machines that day. */
  outputTotal: z.string(),
  dividendShares: z.number().int(),
  dividendTotal: z.string(),
  error: z.string().nullable(),
});
export type SettlementRun = z.infer<typeof settlementRunSchema>;
export const settlementRunsResponse = z.array(settlementRunSchema);
export const settlementDayParams = z.object({ day: calendarDaySchema });
export const adminHostingOrdersQuery = pageQuery.extend({
  status: z.enum(HOSTING_ORDER_STATUSES).optional(),
  query: z.string().trim().max(254).optional(),
});
export const adminHostingOrderSchema = hostingOrderSchema.extend({ memberEmail: z.string(), accountId: z.string() });
export const adminHostingOrdersResponse = pageOf(adminHostingOrderSchema);
