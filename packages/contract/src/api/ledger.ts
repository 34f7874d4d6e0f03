import { z } from 'zod';
import * as money from '../money.js';
import type { Money } from '../money.js';
import { ValidationReason, moneyStringSchema, requiredText, stringTypeError } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';

/** What the platform keeps balances of (product.md §4). */
export const ASSETS = ['USDT', 'RAB', 'FUEL', 'TICKET'] as const;
export type Asset = (typeof ASSETS)[number];

/** What a member's balance of an asset is for: spendable, held for something pending, in custody, or spent tickets. */
export const LEDGER_PURPOSES = ['available', 'held', 'custody', 'used'] as const;
export type LedgerPurpose = (typeof LEDGER_PURPOSES)[number];

/**
 * Record types of the one balance log (`blance_record`). The spec's log groups (balance, usdt, point,
 * coupon, order, income, withdraw, recharge, exchange…) are types of this log, not separate tables;
 * later money features add theirs here.
 */
export const RECORD_TYPES = [
  'exchange_out',
  'exchange_in',
  'exchange_fee',
  'transfer_out',
  'transfer_in',
  'adjustment_credit',
  'adjustment_debit',
  'hold',
  'hold_release',
  'hold_capture',
  'recharge',
  'withdraw',
  'withdraw_fee',
  'withdraw_refund',
  'custody_deposit',
  'custody_redeem',
  'custody_penalty',
  'interest',
  'machine_purchase',
  'mining_output',
  'income',
  'dividend',
  'otc_escrow',
  'otc_release',
  'otc_refund',
  'otc_received',
  'airdrop',
  'contract_margin',
  'contract_margin_release',
  'contract_profit',
  'contract_loss',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/**
 * An amount a member types for a money call: positive, at most four decimal places (money's
 * precision), never a JSON number.
 */
const MEMBER_AMOUNT_PATTERN = /^(?:0|[1-9]\d{0,15})(?:\.\d{1,4})?$/;
export const moneyAmountSchema = requiredText(24)
  .refine((value) => MEMBER_AMOUNT_PATTERN.test(value), { error: ValidationReason.amountPlaces })
  .refine((value) => /[1-9]/.test(value), { error: ValidationReason.amountPositive });

/**
 * A client-made key for one money request (a UUID made when the form opens): a retry with the same
 * key returns the first result and moves nothing again.
 */
export const idempotencyKeySchema = z
  .string({ error: stringTypeError })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: ValidationReason.invalid });

export const tradePasswordField = z
  .string({ error: stringTypeError })
  .min(1, { error: ValidationReason.required })
  .max(128, { error: ValidationReason.tooLong });

// ── Assets ───────────────────────────────────────────────────────────────────────────────────────

const assetBalance = z.object({
  available: moneyStringSchema,
  held: moneyStringSchema,
});

/** GET /api/user/assets: the current account's balances and their value in USDT. */
export const userAssetsResponse = z.object({
  /** Cash plus custody, in USDT. */
  totalUsdt: moneyStringSchema,
  /** USDT (available and held) plus RAB valued at the operator's price. */
  cashUsdt: moneyStringSchema,
  custodyUsdt: moneyStringSchema,
  rabPriceUsdt: z.string(),
  USDT: assetBalance,
  RAB: assetBalance,
  FUEL: assetBalance,
  TICKET: z.object({ available: moneyStringSchema, used: moneyStringSchema }),
});
export type UserAssets = z.infer<typeof userAssetsResponse>;

// ── Balance log ──────────────────────────────────────────────────────────────────────────────────

/** GET /api/user/balance_log */
export const balanceLogQuery = pageQuery.extend({
  asset: z.enum(ASSETS).optional(),
  type: z.enum(RECORD_TYPES).optional(),
});
export const balanceLogItem = z.object({
  id: z.string(),
  asset: z.enum(ASSETS),
  type: z.enum(RECORD_TYPES),
  amount: moneyStringSchema,
  balanceAfter: moneyStringSchema,
  createdAt: z.iso.datetime(),
  /** What caused it: an exchange order, a transfer, an adjustment… */
  referenceType: z.string().nullable(),
  referenceId: z.string().nullable(),
});
export type BalanceLogItem = z.infer<typeof balanceLogItem>;
export const balanceLogResponse = pageOf(balanceLogItem);

// ── Token exchange (withdraw6, blance_record3) ───────────────────────────────────────────────────

export const EXCHANGE_DIRECTIONS = ['rab_to_usdt', 'usdt_to_rab'] as const;
export type ExchangeDirection = (typeof EXCHANGE_DIRECTIONS)[number];

/** A price or rate as a decimal string with up to 8 places. */
export const decimalRateSchema = z.string().regex(/^(?:0|[1-9]\d{0,11})(?:\.\d{1,8})?$/, { error: ValidationReason.invalid });

export const exchangeSettingsSchema = z.object({
  enabled: z.boolean(),
  /** USDT per RAB. */
  rabPriceUsdt: decimalRateSchema.refine((value) => /[1-9]/.test(value), { error: ValidationReason.amountPositive }),
  /** Fee as a fraction of the trade's USDT value, e.g. "0.005" = 0.5 %. */
  feeRate: decimalRateSchema.refine((value) => Number.parseInt(value, 10) < 1, { error: ValidationReason.invalid }),
  minRab: moneyStringSchema,
  minUsdt: moneyStringSchema,
});
export type ExchangeSettings = z.infer<typeof exchangeSettingsSchema>;

/** GET /api/exchange/index: the live quote and what the member can spend. */
export const exchangeIndexResponse = exchangeSettingsSchema.extend({
  available: z.object({ USDT: moneyStringSchema, RAB: moneyStringSchema, FUEL: moneyStringSchema }),
});
export type ExchangeIndex = z.infer<typeof exchangeIndexResponse>;

/** POST /api/exchange/exchange */
export const exchangeRequest = z.object({
  direction: z.enum(EXCHANGE_DIRECTIONS),
  amount: moneyAmountSchema,
  /** The price the member saw; a different current price refuses the exchange as stale. */
  quotedPrice: decimalRateSchema,
  tradePassword: tradePasswordField,
  idempotencyKey: idempotencyKeySchema,
});
export const exchangeOrderSchema = z.object({
  id: z.string(),
  direction: z.enum(EXCHANGE_DIRECTIONS),
  fromAsset: z.enum(ASSETS),
  toAsset: z.enum(ASSETS),
  fromAmount: moneyStringSchema,
  toAmount: moneyStringSchema,
  price: z.string(),
  /** The whole fee in USDT value, and the parts paid in FUEL and in USDT. */
  fee: moneyStringSchema,
  feeFuel: moneyStringSchema,
  feeUsdt: moneyStringSchema,
  createdAt: z.iso.datetime(),
});
export type ExchangeOrder = z.infer<typeof exchangeOrderSchema>;
export const exchangeResponse = exchangeOrderSchema;
/** GET /api/exchange/list */
export const exchangeListResponse = pageOf(exchangeOrderSchema);

export interface ExchangeQuote {
  fromAsset: Asset;
  toAsset: Asset;
  fromAmount: Money;
  toAmount: Money;
  fee: Money;
  feeFuel: Money;
  feeUsdt: Money;
}

export type ExchangeQuoteProblem = 'below_minimum' | 'nothing_received';

/**
 * The exchange arithmetic, shared by the server (authoritative) and the app (preview). The fee is a
 * share of the trade's USDT value, rounded up; FUEL pays it first and USDT the rest: taken from the
 * USDT received (RAB → USDT) or from the USDT spent before conversion (USDT → RAB). What the member
 * receives rounds down.
 */
export function quoteExchange(
  direction: ExchangeDirection,
  amount: Money,
  settings: Pick<ExchangeSettings, 'rabPriceUsdt' | 'feeRate' | 'minRab' | 'minUsdt'>,
  fuelAvailable: Money,
): { quote: ExchangeQuote } | { problem: ExchangeQuoteProblem } {
  const price = settings.rabPriceUsdt;
  if (direction === 'rab_to_usdt') {
    if (amount < money.parseMoney(settings.minRab)) return { problem: 'below_minimum' };
    const gross = money.multiply(amount, price, 'down');
    const fee = money.multiply(gross, settings.feeRate, 'up');
    const feeFuel = money.min(fee, money.max(fuelAvailable, money.ZERO));
    const feeUsdt = money.subtract(fee, feeFuel);
    const toAmount = money.subtract(gross, feeUsdt);
    if (toAmount <= 0n) return { problem: 'nothing_received' };
    return { quote: { fromAsset: 'RAB', toAsset: 'USDT', fromAmount: amount, toAmount, fee, feeFuel, feeUsdt } };
  }
  if (amount < money.parseMoney(settings.minUsdt)) return { problem: 'below_minimum' };
  const fee = money.multiply(amount, settings.feeRate, 'up');
  const feeFuel = money.min(fee, money.max(fuelAvailable, money.ZERO));
  const feeUsdt = money.subtract(fee, feeFuel);
  const net = money.subtract(amount, feeUsdt);
  const toAmount = net > 0n ? money.divide(net, price, 'down') : money.ZERO;
  if (toAmount <= 0n) return { problem: 'nothing_received' };
  return { quote: { fromAsset: 'USDT', toAsset: 'RAB', fromAmount: amount, toAmount, fee, feeFuel, feeUsdt } };
}

// ── Transfers between main and sub-accounts (withdraw5, withdraw_record6) ───────────────────────

/** Assets that move between a member's own accounts; FUEL and TICKET stay with the account that earned them. */
export const TRANSFER_ASSETS = ['USDT', 'RAB'] as const;

/** POST /api/account/transfer: from the account in use to another of the member's accounts. */
export const transferRequest = z.object({
  toAccountId: z.uuid({ error: ValidationReason.invalid }),
  asset: z.enum(TRANSFER_ASSETS),
  amount: moneyAmountSchema,
  tradePassword: tradePasswordField,
  idempotencyKey: idempotencyKeySchema,
});
export const transferSchema = z.object({
  id: z.string(),
  /** Seen from the account in use. */
  direction: z.enum(['out', 'in']),
  fromAccountId: z.string(),
  fromNickname: z.string(),
  toAccountId: z.string(),
  toNickname: z.string(),
  asset: z.enum(ASSETS),
  amount: moneyStringSchema,
  createdAt: z.iso.datetime(),
});
export type Transfer = z.infer<typeof transferSchema>;
export const transferResponse = transferSchema;
/** GET /api/account/transfer_list */
export const transferListResponse = pageOf(transferSchema);

// ── Console ──────────────────────────────────────────────────────────────────────────────────────

export const ledgerAccountSchema = z.object({
  id: z.string(),
  /** The member account that owns it, or null for a platform account. */
  ownerAccountId: z.string().nullable(),
  platformCode: z.string().nullable(),
  asset: z.enum(ASSETS),
  purpose: z.string(),
  balance: moneyStringSchema,
  allowNegative: z.boolean(),
});
export type LedgerAccount = z.infer<typeof ledgerAccountSchema>;

/** GET /api/admin/members/:id/balances: every ledger account of every account of the member. */
export const adminMemberBalancesResponse = z.array(
  z.object({
    accountId: z.string(),
    kind: z.enum(['main', 'sub']),
    nickname: z.string(),
    ledgerAccounts: z.array(ledgerAccountSchema),
  }),
);

/** GET /api/admin/ledger/postings?accountId=: a member account's postings, newest first. */
export const adminPostingsQuery = pageQuery.extend({
  accountId: z.uuid().optional(),
  ledgerAccountId: z.uuid().optional(),
});
export const adminPostingSchema = z.object({
  id: z.string(),
  entryId: z.string(),
  entryKind: z.string(),
  ledgerAccountId: z.string(),
  purpose: z.string(),
  asset: z.enum(ASSETS),
  amount: moneyStringSchema,
  balanceAfter: moneyStringSchema,
  type: z.string(),
  referenceType: z.string().nullable(),
  referenceId: z.string().nullable(),
  idempotencyKey: z.string(),
  createdAt: z.iso.datetime(),
});
export const adminPostingsResponse = pageOf(adminPostingSchema);

/** GET /api/admin/ledger/platform */
export const adminPlatformAccountsResponse = z.array(ledgerAccountSchema);

export const ADJUSTMENT_DIRECTIONS = ['credit', 'debit'] as const;
export const ADJUSTMENT_STATUSES = ['proposed', 'approved', 'rejected'] as const;

/** POST /api/admin/ledger/adjustments: one operator proposes, another approves. */
export const proposeAdjustmentRequest = z.object({
  accountId: z.uuid({ error: ValidationReason.invalid }),
  asset: z.enum(ASSETS),
  direction: z.enum(ADJUSTMENT_DIRECTIONS),
  amount: moneyAmountSchema,
  reason: requiredText(140),
});
export const adjustmentSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  memberEmail: z.string(),
  accountNickname: z.string(),
  asset: z.enum(ASSETS),
  direction: z.enum(ADJUSTMENT_DIRECTIONS),
  amount: moneyStringSchema,
  reason: z.string(),
  status: z.enum(ADJUSTMENT_STATUSES),
  proposedBy: z.string(),
  proposedAt: z.iso.datetime(),
  decidedBy: z.string().nullable(),
  decidedAt: z.iso.datetime().nullable(),
  decisionNote: z.string().nullable(),
  entryId: z.string().nullable(),
});
export type Adjustment = z.infer<typeof adjustmentSchema>;
export const adjustmentsQuery = pageQuery.extend({ status: z.enum(ADJUSTMENT_STATUSES).optional() });
export const adjustmentsResponse = pageOf(adjustmentSchema);
export const adjustmentIdParams = z.object({ id: z.uuid() });
export const decideAdjustmentRequest = z.object({ note: z.string().trim().max(140).optional() });

/** GET/PUT /api/admin/exchange/settings */
export const adminExchangeSettingsResponse = exchangeSettingsSchema;
export const updateExchangeSettingsRequest = exchangeSettingsSchema;

/** GET /api/admin/ledger/verify: the invariant report. */
export const ledgerReportSchema = z.object({
  clean: z.boolean(),
  checkedAt: z.iso.datetime(),
  counts: z.object({ entries: z.number().int(), postings: z.number().int(), accounts: z.number().int() }),
  /** Sum of every balance per asset: always zero in a double-entry ledger. */
  totals: z.array(z.object({ asset: z.string(), sum: z.string() })),
  problems: z.array(z.object({ check: z.string(), detail: z.string() })),
});
export type LedgerReport = z.infer<typeof ledgerReportSchema>;
