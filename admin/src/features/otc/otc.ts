import {
  fieldLabel,
  isMessageKey,
  otcSettingsSchema,
  translate,
  type AdminOtcOrder,
  type MessageKey,
  type OtcAppealReason,
  type OtcCancelReason,
  type OtcListingState,
  type OtcOrderState,
  type OtcOrderStep,
  type OtcPaymentType,
  type OtcReputation,
  type OtcRuling,
  type OtcSettings,
  type OtcSide,
  type OtcActor,
} from '@custos/contract';
import { toMoneyString } from '../../lib/decimal';

export const ORDER_STATE_LABELS: Record<OtcOrderState, string> = {
  pending_payment: 'Awaiting payment',
  paid: 'Paid, awaiting release',
  appeal: 'Under appeal',
  completed: 'Completed',
  cancelled: 'Cancelled',
};
export const ORDER_STATE_COLOURS: Record<OtcOrderState, string> = {
  pending_payment: 'blue',
  paid: 'gold',
  appeal: 'red',
  completed: 'green',
  cancelled: 'default',
};

export const LISTING_STATE_LABELS: Record<OtcListingState, string> = {
  matching: 'On the market',
  ended: 'Ended',
  cancelled: 'Cancelled',
};
export const LISTING_STATE_COLOURS: Record<OtcListingState, string> = { matching: 'blue', ended: 'green', cancelled: 'default' };

/** A listing's side as the lister posted it. */
export const SIDE_LABELS: Record<OtcSide, string> = { sell: 'Sells USDT', buy: 'Buys USDT' };

export const CANCEL_REASON_LABELS: Record<OtcCancelReason, string> = {
  buyer_cancelled: 'cancelled by the buyer',
  seller_cancelled: 'cancelled by the seller',
  payment_timeout: 'not paid in time',
  ruling: 'returned to the seller by a ruling',
};

export const APPEAL_REASON_LABELS: Record<OtcAppealReason, string> = {
  paid_not_released: 'Paid, but the seller did not release',
  payment_not_received: 'Payment not received',
  amount_mismatch: 'Amount paid does not match',
  payer_name_mismatch: "Payer's name does not match",
  fraud_suspected: 'Fraud suspected',
  other: 'Other',
};

export const RULING_LABELS: Record<OtcRuling, string> = {
  release_to_buyer: 'Release to the buyer',
  return_to_seller: 'Return to the seller',
};

export const STEP_LABELS: Record<OtcOrderStep, string> = {
  created: 'Order created',
  paid: 'Marked paid',
  release_overdue: 'Release overdue',
  appealed: 'Appealed',
  released: 'Released',
  cancelled: 'Cancelled',
  ruled: 'Ruled',
};

export const ACTOR_LABELS: Record<OtcActor, string> = {
  buyer: 'buyer',
  seller: 'seller',
  lister: 'lister',
  system: 'platform',
  operator: 'operator',
};

export const PAYMENT_TYPE_LABELS: Record<OtcPaymentType, string> = { bank: 'Bank card', wechat: 'WeChat', alipay: 'Alipay' };

/**
 * A trail step's note as an operator reads it: an appeal's reason and a ruling's outcome are stored
 * as codes ("payment_not_received", "release_to_buyer: …") and shown with their labels.
 */
export function trailNote(step: OtcOrderStep, note: string): string {
  if (step === 'appealed' && note in APPEAL_REASON_LABELS) return APPEAL_REASON_LABELS[note as OtcAppealReason];
  if (step === 'ruled') {
    const [code = '', ...rest] = note.split(': ');
    if (code in RULING_LABELS) return [RULING_LABELS[code as OtcRuling], ...rest].join(': ');
  }
  return note;
}

/** A 30-day reputation in one line: completed orders, completion rate, average release time. */
export function reputationText(reputation: OtcReputation): string {
  const rate = reputation.completionRate30d === null ? '—' : `${reputation.completionRate30d} %`;
  const release = reputation.avgReleaseSeconds === null ? '—' : durationText(reputation.avgReleaseSeconds);
  return `${reputation.completedOrders30d} orders (30 d) · ${rate} completed · releases in ${release} · ${reputation.completedOrdersTotal} in all`;
}

/** Seconds as "4 min 05 s" / "1 h 02 min". */
export function durationText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** How an order ended or where it stands, for lists. */
export function orderOutcome(order: AdminOtcOrder): string {
  if (order.state === 'cancelled' && order.cancelReason) return CANCEL_REASON_LABELS[order.cancelReason];
  return ORDER_STATE_LABELS[order.state];
}

// ── Settings ─────────────────────────────────────────────────────────────────────────────────────

/** The form as typed: money and rates as text, minutes and counts as numbers. */
export type OtcSettingsForm = OtcSettings;

export const MONEY_SETTINGS = ['guidePrice', 'orderMinimum', 'orderMaximum', 'listingMaximum', 'listingDeposit'] as const;

export const SETTINGS_LABELS: Record<keyof OtcSettings, string> = {
  enabled: 'OTC trading open',
  fiatCurrency: 'Fiat currency',
  guidePrice: 'Guide price (fiat per USDT)',
  priceBandPct: 'Price band (± % around the guide price)',
  makerFeePct: "Maker's fee (% of each order)",
  paymentWindowMinMinutes: 'Shortest payment window (min)',
  paymentWindowMaxMinutes: 'Longest payment window (min)',
  paymentWindowDefaultMinutes: 'Default payment window (min)',
  releaseWindowMinutes: 'Release window, then appeals open (min)',
  orderMinimum: 'Smallest order (USDT)',
  orderMaximum: 'Largest order (USDT)',
  listingMaximum: 'Largest listing (USDT)',
  maxOpenListings: 'Listings per member at once',
  maxOpenTakerOrders: 'Open orders per taker at once',
  takerDailyCancelLimit: 'Taker cancellations per day before taking is barred',
  listingDeposit: 'Security deposit per listing (USDT, 0 for none)',
};

/** The field a contract issue is about: the last name in its path ("suspend.days" → "days"). */
export function issueField(issue: { path: readonly PropertyKey[] }): string {
  return String(issue.path.filter((segment) => typeof segment === 'string').at(-1) ?? 'body');
}

/**
 * Why the contract's schema refused a field, worded as the server words it (its English catalogue:
 * "{field}: {reason}", or "please enter {field}"), so the console and the server say the same.
 */
export function contractIssueText(issue: { path: readonly PropertyKey[]; message: string; code: string }): string {
  const label = fieldLabel('en', issueField(issue));
  const fromContract = `reason.${issue.message}`;
  const reasonKey: MessageKey = isMessageKey(fromContract)
    ? fromContract
    : issue.code === 'invalid_type'
      ? 'reason.wrong_type'
      : 'reason.invalid';
  const reason = translate('en', reasonKey, { field: label });
  return reasonKey === 'reason.required' ? reason : translate('en', 'field_error', { field: label, reason });
}

/**
 * The typed form as the contract's settings (amounts written with four places), or the first field
 * the contract's schema refuses with the server's wording; the server checks the same schema again.
 */
export function toOtcSettings(form: OtcSettingsForm): { settings: OtcSettings } | { problem: string; field: string } {
  // An emptied field is missing, whatever its type, as the server would say of a missing field.
  const missing = (Object.keys(SETTINGS_LABELS) as (keyof OtcSettings)[]).find((key) => {
    const value: unknown = form[key];
    return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
  });
  if (missing) return { problem: translate('en', 'reason.required', { field: fieldLabel('en', missing) }), field: missing };
  const normalised: Record<string, unknown> = { ...form };
  for (const key of MONEY_SETTINGS) {
    const text = typeof form[key] === 'string' ? form[key].trim() : '';
    normalised[key] = toMoneyString(text) ?? text;
  }
  for (const key of ['priceBandPct', 'makerFeePct', 'fiatCurrency'] as const) {
    normalised[key] = typeof form[key] === 'string' ? form[key].trim() : form[key];
  }
  const parsed = otcSettingsSchema.safeParse(normalised);
  if (parsed.success) return { settings: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { problem: contractIssueText(issue), field: issueField(issue) };
}

/** What a save would change, for the confirmation. */
export function settingsChanges(before: OtcSettings, after: OtcSettings): { label: string; before: string; after: string }[] {
  return (Object.keys(SETTINGS_LABELS) as (keyof OtcSettings)[])
    .filter((key) => String(before[key]) !== String(after[key]))
    .map((key) => ({
      label: SETTINGS_LABELS[key],
      before: typeof before[key] === 'boolean' ? (before[key] ? 'yes' : 'no') : String(before[key]),
      after: typeof after[key] === 'boolean' ? (after[key] ? 'yes' : 'no') : String(after[key]),
    }));
}
