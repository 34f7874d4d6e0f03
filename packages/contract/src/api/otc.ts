import { z } from 'zod';
import { UPLOAD_MAX_BYTES } from '../constants.js';
import * as money from '../money.js';
import {
  ValidationReason,
  calendarDaySchema,
  moneyStringSchema,
  requiredText,
  stringTypeError,
  verificationCodeSchema,
} from '../validators.js';
import { pageOf, pageQuery } from './paging.js';
import { CHAT_PAGE_MAX, CHAT_TEXT_MAX_LENGTH } from './chat.js';
import { decimalRateSchema, idempotencyKeySchema, moneyAmountSchema, tradePasswordField } from './ledger.js';

// OTC (peer-to-peer) trading of USDT for fiat with escrow (issue 14, docs/decisions/031-otc.md).
// Every money figure is a 4-place decimal string; prices are fiat per USDT.

// ── Enums ────────────────────────────────────────────────────────────────────────────────────────

/**
 * A listing's side from its lister's point of view: a `sell` listing sells USDT (members "buy USDT"
 * from it), a `buy` listing buys USDT (members "sell USDT" to it).
 */
export const OTC_SIDES = ['sell', 'buy'] as const;
export type OtcSide = (typeof OTC_SIDES)[number];

/**
 * Listing states (spec §4 "to be matched → match ended / cancelled"). `matching`: on the market (or
 * waiting for its open orders); `ended`: fully traded and no order open; `cancelled`: revoked by its
 * lister or an operator (open orders still finish; nothing unmatched is held).
 */
export const OTC_LISTING_STATES = ['matching', 'ended', 'cancelled'] as const;
export type OtcListingState = (typeof OTC_LISTING_STATES)[number];

/**
 * Order states: `pending_payment` (buyer pays off-platform before the payment deadline), `paid`
 * (buyer tapped "I have paid"; the seller releases), `appeal` (frozen until an operator rules),
 * `completed` (USDT released to the buyer), `cancelled` (escrow returned).
 */
export const OTC_ORDER_STATES = ['pending_payment', 'paid', 'appeal', 'completed', 'cancelled'] as const;
export type OtcOrderState = (typeof OTC_ORDER_STATES)[number];
/** States in which an order still holds escrow. */
export const OTC_OPEN_ORDER_STATES = ['pending_payment', 'paid', 'appeal'] as const satisfies readonly OtcOrderState[];

/** Which side of an order a member is on. */
export const OTC_ROLES = ['buyer', 'seller'] as const;
export type OtcRole = (typeof OTC_ROLES)[number];

/** Why an order was cancelled. */
export const OTC_CANCEL_REASONS = ['buyer_cancelled', 'seller_cancelled', 'payment_timeout', 'ruling'] as const;
export type OtcCancelReason = (typeof OTC_CANCEL_REASONS)[number];

/** How a buyer pays a seller off-platform: the member's own methods (wechat and alipay are OTC only). */
export const OTC_PAYMENT_TYPES = ['bank', 'wechat', 'alipay'] as const;
export type OtcPaymentType = (typeof OTC_PAYMENT_TYPES)[number];

/** Reasons a party gives for an appeal. */
export const OTC_APPEAL_REASONS = [
  'paid_not_released',
  'payment_not_received',
  'amount_mismatch',
  'payer_name_mismatch',
  'fraud_suspected',
  'other',
] as const;
export type OtcAppealReason = (typeof OTC_APPEAL_REASONS)[number];

export const OTC_APPEAL_STATUSES = ['open', 'ruled'] as const;
export type OtcAppealStatus = (typeof OTC_APPEAL_STATUSES)[number];

/** An operator's ruling on an appeal. */
export const OTC_RULINGS = ['release_to_buyer', 'return_to_seller'] as const;
export type OtcRuling = (typeof OTC_RULINGS)[number];

/** Steps of an order's trail (blance_record10, order_detail), each with its time. */
export const OTC_ORDER_STEPS = ['created', 'paid', 'release_overdue', 'appealed', 'released', 'cancelled', 'ruled'] as const;
export type OtcOrderStep = (typeof OTC_ORDER_STEPS)[number];

/** Steps of a listing's trail (blance_record9). */
export const OTC_LISTING_STEPS = [
  'posted',
  'order_opened',
  'order_completed',
  'order_cancelled',
  'revoked',
  'ended',
  'deposit_released',
  'deposit_forfeited',
] as const;
export type OtcListingStep = (typeof OTC_LISTING_STEPS)[number];

/** Who took a step: a party, the platform's timer, or an operator. */
export const OTC_ACTORS = ['buyer', 'seller', 'lister', 'system', 'operator'] as const;
export type OtcActor = (typeof OTC_ACTORS)[number];

// ── Limits ───────────────────────────────────────────────────────────────────────────────────────

export const OTC_TERMS_MAX_LENGTH = 500;
export const OTC_APPEAL_DESCRIPTION_MAX_LENGTH = 500;
export const OTC_APPEAL_IMAGES_MAX = 5;
export const OTC_PAYMENT_METHODS_MAX = 5;

/** A money string's value, or null when it is not one (refinements run even when a field failed). */
function moneyOrNull(value: unknown): bigint | null {
  if (typeof value !== 'string') return null;
  try {
    return money.parseMoney(value);
  } catch {
    return null;
  }
}

function decimalParts(value: string): { numerator: bigint; places: number } {
  const [whole = '0', fraction = ''] = value.split('.');
  return { numerator: BigInt(`${whole}${fraction}`), places: fraction.length };
}

/**
 * What the buyer pays off-platform: quantity × price in fiat, two places, rounded half up (the same
 * function gives the app's preview and the server's figure).
 */
export function otcFiatAmount(quantity: string, price: string): string {
  // Both are 4-place money strings: the exact product has 8 places; round it half up to 2.
  const product = money.parseMoney(quantity) * money.parseMoney(price);
  const cents = (product + 500_000n) / 1_000_000n;
  const whole = cents / 100n;
  const rest = (cents % 100n).toString().padStart(2, '0');
  return `${whole.toString()}.${rest}`;
}

/**
 * The maker's fee on a quantity at a percent rate ("0.1" = 0.1 %), rounded up to 4 places
 * (product.md §4: fees round up). Decision 031.
 */
export function otcFee(quantity: string, feePct: string): string {
  const amount = money.parseMoney(quantity);
  const { numerator, places } = decimalParts(feePct);
  const divisor = 10n ** BigInt(places) * 100n;
  const units = (amount * numerator + divisor - 1n) / divisor;
  return money.formatMoney(money.fromUnits(units));
}

/** The band of prices a listing may use: guide × (1 ∓ band %), rounded inwards to 4 places. */
export function otcPriceBand(guidePrice: string, bandPct: string): { min: string; max: string } {
  const guide = money.parseMoney(guidePrice);
  const { numerator, places } = decimalParts(bandPct);
  const divisor = 10n ** BigInt(places) * 100n;
  const spread = guide * numerator;
  const low = (guide * divisor - spread + divisor - 1n) / divisor;
  const high = (guide * divisor + spread) / divisor;
  return { min: money.formatMoney(money.fromUnits(low)), max: money.formatMoney(money.fromUnits(high)) };
}

// ── Fields ───────────────────────────────────────────────────────────────────────────────────────

const uuidField = z.uuid({ error: ValidationReason.invalid });
/** A price per USDT in fiat: positive, at most 4 places. */
export const otcPriceSchema = moneyAmountSchema;
/** A USDT quantity: positive, at most 4 places (more places are refused, never rounded). */
export const otcQuantitySchema = moneyAmountSchema;

const booleanField = z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')], {
  error: ValidationReason.wrongType,
});

// ── Reputation, payment details ──────────────────────────────────────────────────────────────────

/** Computed from orders (never editable): the last 30 days. */
export const otcReputationSchema = z.object({
  nickname: z.string(),
  /** Orders completed in the last 30 days. */
  completedOrders30d: z.number().int().nonnegative(),
  /** Completed ÷ (completed + cancelled by this trader or timed out) in 30 days, percent with 2 places; null with no orders. */
  completionRate30d: z.string().nullable(),
  /** Average seconds from "I have paid" to release as seller (30 days); null with no releases. */
  avgReleaseSeconds: z.number().int().nonnegative().nullable(),
  /** All-time completed orders. */
  completedOrdersTotal: z.number().int().nonnegative(),
});
export type OtcReputation = z.infer<typeof otcReputationSchema>;

/**
 * A payment method as the buyer sees it while an order is open (full details, they pay to it);
 * the member's own list shows the card masked.
 */
export const otcPaymentDetailSchema = z.object({
  id: z.string(),
  type: z.enum(OTC_PAYMENT_TYPES),
  holderName: z.string(),
  bankName: z.string().nullable(),
  branch: z.string().nullable(),
  /** Full card number (to the buyer of an open order) or masked (own list). */
  cardNumber: z.string().nullable(),
  /** Wechat or alipay account. */
  account: z.string().nullable(),
});
export type OtcPaymentDetail = z.infer<typeof otcPaymentDetailSchema>;

// ── Settings (operator, platform_settings `otc`) ─────────────────────────────────────────────────

/** A percent below 100, compared on the text's whole part (the rate is never turned into a float). */
const percentBelowHundredSchema = decimalRateSchema.refine((value) => BigInt(value.split('.')[0] ?? '0') < 100n, {
  error: ValidationReason.invalid,
});

export const otcSettingsSchema = z
  .object({
    enabled: z.boolean(),
    /** The fiat listings are priced in (ISO 4217). */
    fiatCurrency: z.string().regex(/^[A-Z]{3}$/, { error: ValidationReason.invalid }),
    /** The operator's guide price (fiat per USDT), shown on top of the market. */
    guidePrice: otcPriceSchema,
    /** Listings are priced within ± this percent of the guide price, e.g. "5" = 95 %–105 %. */
    priceBandPct: percentBelowHundredSchema,
    /** The maker's fee as a percent of each order's quantity, rounded up (decision 031), e.g. "0.1". */
    makerFeePct: percentBelowHundredSchema,
    /** Payment windows a lister may choose, and the default for a new listing (minutes). */
    paymentWindowMinMinutes: z.number().int().min(5).max(180),
    paymentWindowMaxMinutes: z.number().int().min(5).max(180),
    paymentWindowDefaultMinutes: z.number().int().min(5).max(180),
    /** After "I have paid", the seller's time to release; once it passes either side may appeal (0: at once). */
    releaseWindowMinutes: z.number().int().min(0).max(1440),
    /** Bounds of a listing's per-order limits, and the largest listing (USDT). */
    orderMinimum: moneyAmountSchema,
    orderMaximum: moneyAmountSchema,
    listingMaximum: moneyAmountSchema,
    /** Listings a member may have on the market at once. */
    maxOpenListings: z.number().int().min(1).max(100),
    /** Open orders a member may have as taker at once. */
    maxOpenTakerOrders: z.number().int().min(1).max(100),
    /** Cancellations as taker per platform day (timeouts count) before taking is barred until the next day. */
    takerDailyCancelLimit: z.number().int().min(1).max(100),
    /** The lister's security deposit held per listing while it lives (USDT, "0" = none). */
    listingDeposit: moneyStringSchema,
  })
  .superRefine((value, context) => {
    if (value.paymentWindowMinMinutes > value.paymentWindowMaxMinutes) {
      context.addIssue({ code: 'custom', path: ['paymentWindowMaxMinutes'], message: 'otc_window_order' });
    }
    if (
      value.paymentWindowDefaultMinutes < value.paymentWindowMinMinutes ||
      value.paymentWindowDefaultMinutes > value.paymentWindowMaxMinutes
    ) {
      context.addIssue({ code: 'custom', path: ['paymentWindowDefaultMinutes'], message: 'otc_window_order' });
    }
    const minimum = moneyOrNull(value.orderMinimum);
    const maximum = moneyOrNull(value.orderMaximum);
    if (minimum !== null && maximum !== null && minimum > maximum) {
      context.addIssue({ code: 'custom', path: ['orderMaximum'], message: 'otc_limits_order' });
    }
  });
export type OtcSettings = z.infer<typeof otcSettingsSchema>;

export const OTC_SETTINGS_DEFAULTS: OtcSettings = {
  enabled: true,
  fiatCurrency: 'CNY',
  guidePrice: '7.2000',
  priceBandPct: '5',
  makerFeePct: '0.1',
  paymentWindowMinMinutes: 10,
  paymentWindowMaxMinutes: 60,
  paymentWindowDefaultMinutes: 15,
  releaseWindowMinutes: 15,
  orderMinimum: '10.0000',
  orderMaximum: '50000.0000',
  listingMaximum: '200000.0000',
  maxOpenListings: 5,
  maxOpenTakerOrders: 3,
  takerDailyCancelLimit: 3,
  listingDeposit: '50.0000',
};

// ── Member: info and market ──────────────────────────────────────────────────────────────────────

/** GET /api/otc/info: what the Trade tab shows before the member acts. */
export const otcInfoResponse = z.object({
  enabled: z.boolean(),
  fiatCurrency: z.string(),
  guidePrice: z.string(),
  /** The price band listings must be within (inclusive). */
  priceMin: z.string(),
  priceMax: z.string(),
  makerFeePct: z.string(),
  paymentWindowMinMinutes: z.number().int(),
  paymentWindowMaxMinutes: z.number().int(),
  paymentWindowDefaultMinutes: z.number().int(),
  releaseWindowMinutes: z.number().int(),
  orderMinimum: z.string(),
  orderMaximum: z.string(),
  listingMaximum: z.string(),
  listingDeposit: z.string(),
  takerDailyCancelLimit: z.number().int(),
  /** The member: whether they may trade and what stops them. */
  me: z.object({
    realNameApproved: z.boolean(),
    hasTradePassword: z.boolean(),
    requiresAuthenticator: z.boolean(),
    /** OTC barred by an operator until this time (null: not suspended). */
    suspendedUntil: z.iso.datetime().nullable(),
    /** Cancellations as taker today, and whether taking is barred until tomorrow. */
    cancelsToday: z.number().int().nonnegative(),
    takingBarredUntil: z.iso.datetime().nullable(),
    /** Selling, posting and releasing paused after a security reset until this time (decision 051; null: not paused). */
    coolingOffUntil: z.iso.datetime().nullable(),
    availableUsdt: moneyStringSchema,
    reputation: otcReputationSchema,
    /** Orders that wait on this member (pay, release, appeal answer). */
    pendingActionCount: z.number().int().nonnegative(),
  }),
  /** The member's own payment methods usable for OTC (bank, wechat, alipay), masked. */
  paymentMethods: z.array(otcPaymentDetailSchema),
  serverTime: z.iso.datetime(),
});
export type OtcInfo = z.infer<typeof otcInfoResponse>;

/** A listing as the market shows it. */
export const otcMarketListingSchema = z.object({
  id: z.string(),
  listingNo: z.string(),
  side: z.enum(OTC_SIDES),
  trader: otcReputationSchema,
  price: moneyStringSchema,
  quantity: moneyStringSchema,
  /** Not yet in an order. */
  available: moneyStringSchema,
  /** Per-order limits in USDT; for a not-splittable listing both equal `available`. */
  minPerOrder: moneyStringSchema,
  maxPerOrder: moneyStringSchema,
  splittable: z.boolean(),
  paymentTypes: z.array(z.enum(OTC_PAYMENT_TYPES)),
  paymentWindowMinutes: z.number().int(),
  terms: z.string(),
  /** The lister's security deposit held for this listing ("0.0000" when none). */
  deposit: moneyStringSchema,
  createdAt: z.iso.datetime(),
  /** True for the member's own listing (shown, never takeable). */
  mine: z.boolean(),
});
export type OtcMarketListing = z.infer<typeof otcMarketListingSchema>;

/**
 * GET /api/otc/all_sell_list: the market. `side` is the listings' side (`sell`: the member buys
 * USDT). `amount` keeps listings whose per-order limits admit it; `paymentType` keeps listings
 * accepting it. Best price first (lowest for sell listings, highest for buy listings), then oldest.
 */
export const otcMarketQuery = pageQuery.extend({
  side: z.enum(OTC_SIDES).default('sell'),
  amount: moneyAmountSchema.optional(),
  paymentType: z.enum(OTC_PAYMENT_TYPES).optional(),
});
export const otcMarketResponse = pageOf(otcMarketListingSchema).extend({ guidePrice: z.string(), fiatCurrency: z.string() });

// ── Member: listings ─────────────────────────────────────────────────────────────────────────────

/**
 * POST /api/otc/post: a sell or buy listing. A sell listing holds quantity + the maker fee at once;
 * a listing holds the operator's deposit while it lives.
 */
export const otcPostListingRequest = z
  .object({
    side: z.enum(OTC_SIDES),
    quantity: otcQuantitySchema,
    price: otcPriceSchema,
    minPerOrder: moneyAmountSchema,
    maxPerOrder: moneyAmountSchema,
    splittable: booleanField,
    /** The member's own bank / wechat / alipay methods the buyer pays to (sell) or pays from (buy). */
    paymentMethodIds: z
      .array(uuidField, { error: ValidationReason.invalid })
      .min(1, { error: ValidationReason.required })
      .max(OTC_PAYMENT_METHODS_MAX, { error: ValidationReason.invalid })
      .refine((ids) => new Set(ids).size === ids.length, { error: ValidationReason.invalid }),
    paymentWindowMinutes: z.coerce.number({ error: ValidationReason.invalid }).int({ error: ValidationReason.invalid }),
    terms: z.string({ error: stringTypeError }).trim().max(OTC_TERMS_MAX_LENGTH, { error: ValidationReason.tooLong }).default(''),
    idempotencyKey: idempotencyKeySchema,
  })
  .superRefine((value, context) => {
    const min = moneyOrNull(value.minPerOrder);
    const max = moneyOrNull(value.maxPerOrder);
    if (min !== null && max !== null && min > max) {
      context.addIssue({ code: 'custom', path: ['maxPerOrder'], message: 'otc_limits_order' });
    }
  });
export type OtcPostListingRequest = z.input<typeof otcPostListingRequest>;

export const otcListingIdRequest = z.object({ listingId: uuidField });
export const otcListingIdQuery = z.object({ id: uuidField });

/** A step of a trail. */
export const otcTrailItemSchema = <T extends readonly [string, ...string[]]>(steps: T) =>
  z.object({
    step: z.enum(steps),
    actor: z.enum(OTC_ACTORS),
    /** The order concerned (listing trails), or a note (ruling, reason). */
    orderNo: z.string().nullable(),
    note: z.string().nullable(),
    at: z.iso.datetime(),
  });

/** The lister's own view of a listing (blance_record9). */
export const otcMyListingSchema = otcMarketListingSchema.extend({
  state: z.enum(OTC_LISTING_STATES),
  /** Quantity in open orders, and completed so far. */
  inOrders: moneyStringSchema,
  completed: moneyStringSchema,
  openOrders: z.number().int().nonnegative(),
  makerFeePct: z.string(),
  /** Escrow held now for the unmatched part (sell listings: available + its fee). */
  escrowHeld: moneyStringSchema,
  depositStatus: z.enum(['none', 'held', 'released', 'forfeited']),
  paymentMethods: z.array(otcPaymentDetailSchema),
  updatedAt: z.iso.datetime(),
});
export type OtcMyListing = z.infer<typeof otcMyListingSchema>;
export const otcListingDetailSchema = otcMyListingSchema.extend({
  trail: z.array(otcTrailItemSchema(OTC_LISTING_STEPS)),
});
export type OtcListingDetail = z.infer<typeof otcListingDetailSchema>;

/** GET /api/otc/my_listings */
export const otcMyListingsQuery = pageQuery.extend({
  state: z.enum(OTC_LISTING_STATES).optional(),
  side: z.enum(OTC_SIDES).optional(),
});
export const otcMyListingsResponse = pageOf(otcMyListingSchema);
/** GET /api/otc/listing_info?id= : the market's view for anyone, with trail and state for its lister. */
export const otcListingInfoResponse = z.object({
  listing: otcMarketListingSchema,
  /** Only for the lister. */
  mine: otcListingDetailSchema.nullable(),
});

// ── Member: orders ───────────────────────────────────────────────────────────────────────────────

/** POST /api/otc/buy: take a sell listing (buy USDT). */
export const otcBuyRequest = z.object({
  listingId: uuidField,
  amount: otcQuantitySchema,
  idempotencyKey: idempotencyKeySchema,
});
/**
 * POST /api/otc/sell: take a buy listing (sell USDT): holds the taker's USDT; the buyer pays to these
 * methods. The USDT is committed to leave the account, so it needs what a withdrawal needs: the
 * trading password, and the authenticator code once one is bound (docs/decisions/051).
 */
export const otcSellRequest = otcBuyRequest.extend({
  paymentMethodIds: z
    .array(uuidField, { error: ValidationReason.invalid })
    .min(1, { error: ValidationReason.required })
    .max(OTC_PAYMENT_METHODS_MAX, { error: ValidationReason.invalid })
    .refine((ids) => new Set(ids).size === ids.length, { error: ValidationReason.invalid }),
  tradePassword: tradePasswordField,
  googleCode: verificationCodeSchema.optional(),
});

export const otcOrderIdRequest = z.object({ orderId: uuidField });
export const otcOrderIdQuery = z.object({ id: uuidField });

/** POST /api/otc/release (spec "seller loan"): the seller releases the USDT to the buyer. */
export const otcReleaseRequest = z.object({
  orderId: uuidField,
  tradePassword: tradePasswordField,
  googleCode: verificationCodeSchema.optional(),
});

/** POST /api/otc/appeal (spec "buyer appeal"; the seller too). */
export const otcAppealRequest = z.object({
  orderId: uuidField,
  reason: z.enum(OTC_APPEAL_REASONS, { error: ValidationReason.invalid }),
  description: requiredText(OTC_APPEAL_DESCRIPTION_MAX_LENGTH),
  /** Uploads with purpose `otc` (POST /api/upload/image). */
  imageIds: z
    .array(uuidField, { error: ValidationReason.invalid })
    .max(OTC_APPEAL_IMAGES_MAX, { error: 'too_many_evidence_images' })
    .default([])
    .refine((ids) => new Set(ids).size === ids.length, { error: ValidationReason.invalid }),
});
export type OtcAppealRequest = z.input<typeof otcAppealRequest>;

export const otcAppealSchema = z.object({
  id: z.string(),
  /** Who appealed. */
  by: z.enum(OTC_ROLES),
  reason: z.enum(OTC_APPEAL_REASONS),
  description: z.string(),
  imageIds: z.array(z.string()),
  status: z.enum(OTC_APPEAL_STATUSES),
  ruling: z.enum(OTC_RULINGS).nullable(),
  /** The operator's note to both parties. */
  rulingNote: z.string().nullable(),
  createdAt: z.iso.datetime(),
  ruledAt: z.iso.datetime().nullable(),
});
export type OtcAppeal = z.infer<typeof otcAppealSchema>;

export const otcOrderSchema = z.object({
  id: z.string(),
  orderNo: z.string(),
  listingId: z.string(),
  listingNo: z.string(),
  /** The viewer's side. */
  myRole: z.enum(OTC_ROLES),
  /** Whether the viewer took the listing (taker) or posted it (maker). */
  iAmMaker: z.boolean(),
  state: z.enum(OTC_ORDER_STATES),
  /** USDT traded. */
  amount: moneyStringSchema,
  price: moneyStringSchema,
  fiatCurrency: z.string(),
  /** What the buyer pays off-platform: amount × price, 2 places. */
  fiatAmount: z.string(),
  /** The maker's fee (decision 031): added to a seller-maker's escrow, or taken from a buyer-maker's USDT. */
  fee: moneyStringSchema,
  /** USDT the buyer receives on release. */
  buyerReceives: moneyStringSchema,
  counterparty: otcReputationSchema,
  /** The seller's payment details: only to the buyer, only while the order is open; else empty. */
  paymentMethods: z.array(otcPaymentDetailSchema),
  payDeadline: z.iso.datetime(),
  paidAt: z.iso.datetime().nullable(),
  /** When an appeal becomes possible (paid + release window); null before paid. */
  appealAllowedAt: z.iso.datetime().nullable(),
  completedAt: z.iso.datetime().nullable(),
  cancelledAt: z.iso.datetime().nullable(),
  cancelReason: z.enum(OTC_CANCEL_REASONS).nullable(),
  appeals: z.array(otcAppealSchema),
  /** What the viewer may do now. */
  actions: z.object({
    confirmPay: z.boolean(),
    buyerCancel: z.boolean(),
    sellerCancel: z.boolean(),
    release: z.boolean(),
    appeal: z.boolean(),
    chat: z.boolean(),
  }),
  terms: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** The server's clock, for the countdown (HH:mm:ss). */
  serverTime: z.iso.datetime(),
});
export type OtcOrder = z.infer<typeof otcOrderSchema>;
export const otcOrderDetailSchema = otcOrderSchema.extend({
  trail: z.array(otcTrailItemSchema(OTC_ORDER_STEPS)),
});
export type OtcOrderDetail = z.infer<typeof otcOrderDetailSchema>;

/** GET /api/otc/my_buy_list, my_sell_list: my orders as buyer / as seller (blance_record10). */
export const otcMyOrdersQuery = pageQuery.extend({ state: z.enum(OTC_ORDER_STATES).optional() });
export const otcMyOrdersResponse = pageOf(otcOrderSchema);
/** GET /api/otc/pending_list: my open orders, those waiting on me first. */
export const otcPendingListResponse = z.object({ items: z.array(otcOrderSchema.extend({ needsMyAction: z.boolean() })) });
/** GET /api/otc/pending_info: counts for badges. */
export const otcPendingInfoResponse = z.object({
  open: z.number().int().nonnegative(),
  needsMyAction: z.number().int().nonnegative(),
});
/** GET /api/otc/order_info?id= */
export const otcOrderInfoResponse = otcOrderDetailSchema;

// ── Member: order chat (reuses the chat conversations, kind `otc_order`) ─────────────────────────

export const OTC_CHAT_SENDERS = ['buyer', 'seller', 'agent'] as const;
export type OtcChatSender = (typeof OTC_CHAT_SENDERS)[number];
const chatMessageId = z.string().regex(/^\d{1,19}$/, { error: ValidationReason.invalid });

export const otcChatMessageSchema = z.object({
  id: chatMessageId,
  sender: z.enum(OTC_CHAT_SENDERS),
  /** True for the viewer's own messages (members). */
  mine: z.boolean(),
  text: z.string().nullable(),
  hasImage: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type OtcChatMessage = z.infer<typeof otcChatMessageSchema>;

/** GET /api/otc/chat_messages?id=&before=&limit= (id: the order). */
export const otcChatHistoryQuery = z.object({
  id: uuidField,
  before: chatMessageId.optional(),
  limit: z.coerce.number().int().min(1).max(CHAT_PAGE_MAX).default(30),
});
export const otcChatHistoryResponse = z.object({
  items: z.array(otcChatMessageSchema),
  nextBefore: chatMessageId.nullable(),
  /** How far the other party has read (ticks). */
  counterpartyReadUpTo: chatMessageId,
  /** Whether new messages may be sent (open orders only; the history stays for the ruling). */
  open: z.boolean(),
});
export type OtcChatHistory = z.infer<typeof otcChatHistoryResponse>;
/** POST /api/otc/chat_send: text, or one image uploaded with purpose `chat`. */
export const otcChatSendRequest = z
  .object({
    orderId: uuidField,
    text: requiredText(CHAT_TEXT_MAX_LENGTH).optional(),
    imageId: uuidField.optional(),
  })
  .refine((body) => (body.text === undefined) !== (body.imageId === undefined), { error: 'text_or_image', path: ['text'] });
export const otcChatSendResponse = otcChatMessageSchema;
/** POST /api/otc/chat_read */
export const otcChatReadRequest = z.object({ orderId: uuidField, upTo: chatMessageId });
/** GET /api/otc/chat_image?id=&messageId= (image bytes) */
export const otcChatImageQuery = z.object({ id: uuidField, messageId: chatMessageId });
/** GET /api/otc/evidence_image?id=&uploadId= (an appeal's image, to the two parties) */
export const otcEvidenceImageQuery = z.object({ id: uuidField, uploadId: uuidField });

// ── Live events (member channel kinds `otc.order`, `otc.listing`) ────────────────────────────────

/** Member events (GET /api/user/events): an order or listing of the member changed. */
export const otcOrderEventData = z.object({
  kind: z.literal('otc.order'),
  orderId: z.string(),
  orderNo: z.string(),
  state: z.enum(OTC_ORDER_STATES),
  step: z.enum(OTC_ORDER_STEPS),
});
export const otcListingEventData = z.object({
  kind: z.literal('otc.listing'),
  listingId: z.string(),
  state: z.enum(OTC_LISTING_STATES),
  available: moneyStringSchema,
});
export const otcChatEventData = z.object({
  kind: z.literal('otc.chat'),
  orderId: z.string(),
  messageId: z.string(),
  preview: z.string(),
});
/** The other party read the order's chat up to `readUpTo` (the sender's ticks). */
export const otcChatReadEventData = z.object({
  kind: z.literal('otc.chat_read'),
  orderId: z.string(),
  readUpTo: z.string(),
});
export type OtcOrderEventData = z.infer<typeof otcOrderEventData>;
export type OtcListingEventData = z.infer<typeof otcListingEventData>;
export type OtcChatEventData = z.infer<typeof otcChatEventData>;

/** The console's live channel (GET /api/admin/otc/events): appeals opened or ruled, order changes, chat. */
export const OTC_OPERATOR_EVENT_KINDS = ['otc.appeal', 'otc.order', 'otc.chat'] as const;
export const otcOperatorEventData = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('otc.appeal'), orderId: z.string(), appealId: z.string(), status: z.enum(OTC_APPEAL_STATUSES) }),
  z.object({ kind: z.literal('otc.order'), orderId: z.string(), state: z.enum(OTC_ORDER_STATES), step: z.enum(OTC_ORDER_STEPS) }),
  z.object({ kind: z.literal('otc.chat'), orderId: z.string(), messageId: z.string() }),
]);
export type OtcOperatorEventData = z.infer<typeof otcOperatorEventData>;
export const otcOperatorEvent = z.object({
  id: z.string().regex(/^\d+$/),
  createdAt: z.iso.datetime(),
  data: otcOperatorEventData,
});
export type OtcOperatorEvent = z.infer<typeof otcOperatorEvent>;

// ── Console ──────────────────────────────────────────────────────────────────────────────────────

/** GET/PUT /api/admin/otc/settings */
export const adminOtcSettingsResponse = otcSettingsSchema;
export const updateOtcSettingsRequest = otcSettingsSchema;

const adminParty = z.object({
  memberId: z.string(),
  accountId: z.string(),
  email: z.string(),
  nickname: z.string(),
  reputation: otcReputationSchema,
  suspendedUntil: z.iso.datetime().nullable(),
});
export type AdminOtcParty = z.infer<typeof adminParty>;

export const adminOtcListingSchema = otcMyListingSchema.extend({
  lister: adminParty,
});
export type AdminOtcListing = z.infer<typeof adminOtcListingSchema>;
/** GET /api/admin/otc/listings */
export const adminOtcListingsQuery = pageQuery.extend({
  state: z.enum(OTC_LISTING_STATES).optional(),
  side: z.enum(OTC_SIDES).optional(),
  /** Listing number or the lister's e-mail. */
  query: z.string().trim().max(254).optional(),
});
export const adminOtcListingsResponse = pageOf(adminOtcListingSchema);

export const adminOtcOrderSchema = z.object({
  id: z.string(),
  orderNo: z.string(),
  listingId: z.string(),
  listingNo: z.string(),
  listingSide: z.enum(OTC_SIDES),
  state: z.enum(OTC_ORDER_STATES),
  amount: moneyStringSchema,
  price: moneyStringSchema,
  fiatCurrency: z.string(),
  fiatAmount: z.string(),
  fee: moneyStringSchema,
  buyer: adminParty,
  seller: adminParty,
  /** Which party took the listing. */
  taker: z.enum(OTC_ROLES),
  payDeadline: z.iso.datetime(),
  paidAt: z.iso.datetime().nullable(),
  appealAllowedAt: z.iso.datetime().nullable(),
  completedAt: z.iso.datetime().nullable(),
  cancelledAt: z.iso.datetime().nullable(),
  cancelReason: z.enum(OTC_CANCEL_REASONS).nullable(),
  /** Escrow the order holds now (0 once settled). */
  escrowHeld: moneyStringSchema,
  createdAt: z.iso.datetime(),
});
export type AdminOtcOrder = z.infer<typeof adminOtcOrderSchema>;
/** GET /api/admin/otc/orders */
export const adminOtcOrdersQuery = pageQuery
  .extend({
    state: z.enum(OTC_ORDER_STATES).optional(),
    /** Order number, listing number or a party's e-mail. */
    query: z.string().trim().max(254).optional(),
    /** The listing's side: `sell` for orders that bought USDT from a seller's listing. */
    side: z.enum(OTC_SIDES).optional(),
    /** Platform days the order was placed on, inclusive at both ends. */
    from: calendarDaySchema.optional(),
    to: calendarDaySchema.optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    error: ValidationReason.dateOrder,
    path: ['to'],
  });
export const adminOtcOrdersResponse = pageOf(adminOtcOrderSchema);

/** GET /api/admin/otc/orders/:id: everything a ruling needs. */
export const adminOtcOrderDetailSchema = adminOtcOrderSchema.extend({
  trail: z.array(otcTrailItemSchema(OTC_ORDER_STEPS)),
  appeals: z.array(otcAppealSchema),
  /** The seller's payment details the buyer was shown. */
  paymentMethods: z.array(otcPaymentDetailSchema),
  terms: z.string(),
  listingDeposit: moneyStringSchema,
  listingDepositStatus: z.enum(['none', 'held', 'released', 'forfeited']),
  /** Which party is the lister (the one with a deposit). */
  lister: z.enum(OTC_ROLES),
});
export type AdminOtcOrderDetail = z.infer<typeof adminOtcOrderDetailSchema>;
export const adminOtcOrderParams = z.object({ id: uuidField });

/** GET /api/admin/otc/appeals: the queue (open first, oldest first). */
export const adminOtcAppealsQuery = pageQuery.extend({ status: z.enum(OTC_APPEAL_STATUSES).default('open') });
export const adminOtcAppealItem = otcAppealSchema.extend({
  order: adminOtcOrderSchema,
  ruledBy: z.string().nullable(),
});
export type AdminOtcAppealItem = z.infer<typeof adminOtcAppealItem>;
export const adminOtcAppealsResponse = pageOf(adminOtcAppealItem).extend({ openTotal: z.number().int().nonnegative() });

/** GET /api/admin/otc/orders/:id/chat: the full chat, oldest first. */
export const adminOtcChatQuery = z.object({
  before: chatMessageId.optional(),
  limit: z.coerce.number().int().min(1).max(CHAT_PAGE_MAX).default(50),
});
export const adminOtcChatMessageSchema = otcChatMessageSchema.extend({ agentName: z.string().nullable() });
export const adminOtcChatResponse = z.object({
  items: z.array(adminOtcChatMessageSchema),
  nextBefore: chatMessageId.nullable(),
});
/** GET /api/admin/otc/orders/:id/chat/:messageId/image and /evidence/:uploadId (image bytes). */
export const adminOtcChatImageParams = z.object({ id: uuidField, messageId: chatMessageId });
export const adminOtcEvidenceParams = z.object({ id: uuidField, uploadId: uuidField });
/** POST /api/admin/otc/orders/:id/chat: the arbiter writes to both parties (text, or an inline image). */
export const adminOtcChatSendRequest = z
  .object({
    text: requiredText(CHAT_TEXT_MAX_LENGTH).optional(),
    imageBase64: z
      .string({ error: ValidationReason.required })
      .min(1, { error: ValidationReason.required })
      .max(Math.ceil((UPLOAD_MAX_BYTES * 4) / 3) * 2, { error: ValidationReason.tooLong })
      .optional(),
  })
  .refine((body) => (body.text === undefined) !== (body.imageBase64 === undefined), { error: 'text_or_image', path: ['text'] });

/**
 * POST /api/admin/otc/orders/:id/rule: release to the buyer or return to the seller; optionally
 * forfeit the lister's deposit (when the lister is the offender) and suspend a party from OTC.
 */
export const adminOtcRuleRequest = z.object({
  ruling: z.enum(OTC_RULINGS, { error: ValidationReason.invalid }),
  note: requiredText(500),
  forfeitDeposit: booleanField.default(false),
  suspend: z
    .object({
      role: z.enum(OTC_ROLES, { error: ValidationReason.invalid }),
      days: z.coerce.number({ error: ValidationReason.invalid }).int({ error: ValidationReason.invalid }).min(1).max(3650),
    })
    .nullable()
    .default(null),
});
export type AdminOtcRuleRequest = z.input<typeof adminOtcRuleRequest>;
export const adminOtcRuleResponse = adminOtcOrderDetailSchema;

/** POST /api/admin/otc/listings/:id/revoke: take a listing off the market (audited). */
export const adminOtcRevokeRequest = z.object({ reason: requiredText(200) });
export const adminOtcListingParams = z.object({ id: uuidField });

/** GET /api/admin/otc/suspensions; POST /api/admin/otc/suspensions/:memberId/lift */
export const adminOtcSuspensionSchema = z.object({
  memberId: z.string(),
  email: z.string(),
  nickname: z.string(),
  until: z.iso.datetime(),
  reason: z.string(),
  orderNo: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export const adminOtcSuspensionsResponse = z.object({ items: z.array(adminOtcSuspensionSchema) });
export const adminOtcMemberParams = z.object({ memberId: uuidField });

/** Operators' evidence and chat images share the byte limit of member uploads. */
export const OTC_IMAGE_MAX_BYTES = UPLOAD_MAX_BYTES;
export const otcOkResponse = z.object({ ok: z.literal(true) });
