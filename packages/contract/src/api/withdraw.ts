import { z } from 'zod';
import { isEvmAddress, isTronAddress } from '../chain-address.js';
import { ValidationReason, calendarDaySchema, requiredText, verificationCodeSchema } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';
import { networkSchema } from './chain.js';
import { decimalRateSchema, idempotencyKeySchema, moneyAmountSchema, tradePasswordField } from './ledger.js';

/** How a member is paid out. wechat and alipay exist as types but are off unless an operator turns them on. */
export const WITHDRAW_METHOD_TYPES = ['crypto', 'bank', 'wechat', 'alipay'] as const;
export type WithdrawMethodType = (typeof WITHDRAW_METHOD_TYPES)[number];

/**
 * pending: waiting for an operator; processing: approved, payout under way; success: paid;
 * failed: the payout could not be sent (an operator retries or refunds); refunded: rejected or given
 * up, the held amount is back in the member's balance.
 */
export const WITHDRAWAL_STATUSES = ['pending', 'processing', 'success', 'failed', 'refunded'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

// ── Methods (withdraw2–withdraw4) ────────────────────────────────────────────────────────────────

/** POST /api/withdraw/add_chain: a crypto address on BEP20 or TRC20, checked by format and checksum. */
export const addCryptoMethodRequest = z
  .object({ network: networkSchema, address: requiredText(64) })
  .superRefine((value, context) => {
    const valid = value.network === 'BEP20' ? isEvmAddress(value.address) : isTronAddress(value.address);
    if (!valid) context.addIssue({ code: 'custom', path: ['address'], message: ValidationReason.addressInvalid });
  });

/** POST /api/withdraw/add_bank */
export const addBankMethodRequest = z.object({
  bankName: requiredText(60),
  cardNumber: requiredText(40)
    .transform((value) => value.replace(/[\s-]/g, ''))
    .refine((value) => /^\d{10,30}$/.test(value), { error: ValidationReason.cardNumber }),
  holderName: requiredText(60),
  branch: requiredText(100),
});

/** POST /api/withdraw/add_wechat and add_alipay: the account name and the account (id, phone or e-mail). */
export const addWalletMethodRequest = z.object({ holderName: requiredText(60), account: requiredText(100) });

export const deleteMethodRequest = z.object({ id: z.uuid() });

export const withdrawMethodSchema = z.object({
  id: z.string(),
  type: z.enum(WITHDRAW_METHOD_TYPES),
  network: networkSchema.nullable(),
  address: z.string().nullable(),
  bankName: z.string().nullable(),
  /** Only the last four digits are ever sent back. */
  cardNumberMasked: z.string().nullable(),
  holderName: z.string().nullable(),
  branch: z.string().nullable(),
  account: z.string().nullable(),
  createdAt: z.string(),
});
export type WithdrawMethod = z.infer<typeof withdrawMethodSchema>;
export const withdrawMethodsResponse = z.array(withdrawMethodSchema);

// ── Settings ─────────────────────────────────────────────────────────────────────────────────────

const timeOfDay = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, { error: ValidationReason.invalid });

/** Operator settings for withdrawals (platform_settings `withdraw`). */
export const withdrawSettingsSchema = z.object({
  enabled: z.boolean(),
  /** A fixed fee per withdrawal plus a rate of the amount (rounded up). */
  feeFixed: moneyAmountSchema.or(z.literal('0')),
  feeRate: decimalRateSchema,
  minimum: moneyAmountSchema,
  maximum: moneyAmountSchema,
  /** Per member per platform day, counting everything not refunded. */
  dailyLimit: moneyAmountSchema,
  /** ISO weekdays (1 = Monday … 7 = Sunday) withdrawals may be requested on. */
  openDays: z.array(z.number().int().min(1).max(7)).max(7),
  /** Local time the window opens; the same as `closeTime` means open all day. */
  openTime: timeOfDay,
  closeTime: timeOfDay,
  methods: z.object({ crypto: z.boolean(), bank: z.boolean(), wechat: z.boolean(), alipay: z.boolean() }),
  /**
   * Hours a member waits to withdraw after an operator reset their password or authenticator, or they
   * reset their trading password by e-mail code (docs/decisions/016); 0 turns the wait off. Settings
   * stored before it existed read as the default.
   */
  securityCoolingOffHours: z.number().int().min(0).max(720).default(24),
});
export type WithdrawSettings = z.infer<typeof withdrawSettingsSchema>;

/** GET /api/withdraw/index: everything the withdraw screen shows before the member types. */
export const withdrawIndexResponse = z.object({
  balance: z.string(),
  settings: withdrawSettingsSchema,
  timeZone: z.string(),
  /** Whether a request made now is inside the window (weekday, hours, not a holiday). */
  openNow: z.boolean(),
  /** When the window next opens, if it is closed now. */
  nextOpenAt: z.string().nullable(),
  holidayToday: z.string().nullable(),
  usedToday: z.string(),
  methods: z.array(withdrawMethodSchema),
  hasTradePassword: z.boolean(),
  requiresAuthenticator: z.boolean(),
  /** Only main accounts withdraw. */
  isMainAccount: z.boolean(),
  /** Until when withdrawals wait after a security reset (docs/decisions/016); null when they do not. */
  coolingOffUntil: z.string().nullable(),
});
export type WithdrawIndex = z.infer<typeof withdrawIndexResponse>;

/** POST /api/withdraw/withdraw */
export const withdrawRequest = z.object({
  methodId: z.uuid(),
  amount: moneyAmountSchema,
  tradePassword: tradePasswordField,
  googleCode: verificationCodeSchema.optional(),
  idempotencyKey: idempotencyKeySchema,
});

export const withdrawalSchema = z.object({
  id: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  methodType: z.enum(WITHDRAW_METHOD_TYPES),
  network: networkSchema.nullable(),
  /** Address, masked card with bank, or wallet account, as shown in records. */
  destination: z.string(),
  amount: z.string(),
  fee: z.string(),
  /** What arrives: amount less fee. */
  received: z.string(),
  txHash: z.string().nullable(),
  /** Bank or wallet payment reference entered by the operator. */
  payoutReference: z.string().nullable(),
  /** Why it was rejected or failed, as shown to the member. */
  reason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;
export const withdrawResponse = withdrawalSchema;
export const withdrawListQuery = pageQuery.extend({ status: z.enum(WITHDRAWAL_STATUSES).optional() });
export const withdrawListResponse = pageOf(withdrawalSchema);
export const withdrawalIdParams = z.object({ id: z.uuid() });

// ── Console ──────────────────────────────────────────────────────────────────────────────────────

export const adminWithdrawalsQuery = pageQuery.extend({
  status: z.enum(WITHDRAWAL_STATUSES).optional(),
  query: z.string().trim().max(254).optional(),
});
export const adminWithdrawalSchema = withdrawalSchema.extend({
  memberId: z.string(),
  memberEmail: z.string(),
  accountId: z.string(),
  kycStatus: z.string(),
  /** The member's earlier withdrawals that were paid, and their total. */
  previousPaidCount: z.number().int(),
  previousPaidTotal: z.string(),
  /** Reasons to look twice: first withdrawal, new account, address used by another member, large amount… */
  riskHints: z.array(z.string()),
  payoutError: z.string().nullable(),
  decidedBy: z.string().nullable(),
});
export type AdminWithdrawal = z.infer<typeof adminWithdrawalSchema>;
export const adminWithdrawalsResponse = pageOf(adminWithdrawalSchema);

export const rejectWithdrawalRequest = z.object({ reason: requiredText(200) });
/** TRC20, bank and wallet payouts are paid outside and confirmed with the reference. */
export const markPaidRequest = z.object({ reference: requiredText(120) });

export const holidaySchema = z.object({ date: z.iso.date(), note: z.string() });
export type Holiday = z.infer<typeof holidaySchema>;
export const holidaysResponse = z.array(holidaySchema);
export const addHolidayRequest = z.object({ date: calendarDaySchema, note: z.string().trim().max(60).default('') });
export const holidayDateParams = z.object({ date: calendarDaySchema });

export const adminWithdrawSettingsResponse = withdrawSettingsSchema;
export const updateWithdrawSettingsRequest = withdrawSettingsSchema;

/** GET /api/admin/chain/hot_wallet */
export const hotWalletResponse = z.object({
  network: networkSchema,
  configured: z.boolean(),
  address: z.string().nullable(),
  usdtBalance: z.string().nullable(),
  nativeBalance: z.string().nullable(),
  error: z.string().nullable(),
});
export type HotWallet = z.infer<typeof hotWalletResponse>;
export const hotWalletsResponse = z.array(hotWalletResponse);
