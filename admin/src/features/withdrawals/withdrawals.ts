import {
  EXPLORERS,
  money,
  operatorMay,
  withdrawSettingsSchema,
  type AdminWithdrawal,
  type Network,
  type OperatorRole,
  type WithdrawSettings,
  type WithdrawalStatus,
} from '@custos/contract';
import { toMoneyString } from '../../lib/decimal';

// ── Queue ────────────────────────────────────────────────────────────────────────────────────────

export const WITHDRAWAL_STATUS_LABELS: Record<WithdrawalStatus, string> = {
  pending: 'Pending approval',
  processing: 'Processing',
  success: 'Paid',
  failed: 'Payout failed',
  refunded: 'Refunded',
};

/** antd Tag colours. */
export const WITHDRAWAL_STATUS_COLOURS: Record<WithdrawalStatus, string> = {
  pending: 'gold',
  processing: 'blue',
  success: 'green',
  failed: 'red',
  refunded: 'default',
};

/** The server's risk hints, as an operator reads them. */
export const RISK_HINTS: Record<string, { label: string; colour: string; description: string }> = {
  first_withdrawal: {
    label: 'First withdrawal',
    colour: 'orange',
    description: 'No earlier withdrawal of this member has been paid.',
  },
  new_account: {
    label: 'New account',
    colour: 'orange',
    description: 'The member registered less than 7 days before the request.',
  },
  address_shared: {
    label: 'Address used by another member',
    colour: 'red',
    description: 'Another member has withdrawn (or asked to withdraw) to the same destination.',
  },
  large_amount: { label: 'Large amount', colour: 'volcano', description: 'The amount is 10,000 USDT or more.' },
  recent_deposit: {
    label: 'Recent deposit',
    colour: 'gold',
    description: 'A deposit was credited to the member in the 24 hours before the request.',
  },
};

/** A hint's label and colour; a code this console does not know yet still reads as words. */
export function riskHint(code: string): { label: string; colour: string; description: string } {
  const known = RISK_HINTS[code];
  if (known) return known;
  const words = code.replace(/_/g, ' ').trim();
  return { label: words.charAt(0).toUpperCase() + words.slice(1), colour: 'orange', description: code };
}

/**
 * Whether an approved withdrawal carries a payout the server signed (a hot wallet is configured for
 * its network): its transaction hash is set from approval on, and the tracker completes it. Without
 * one (TRC20, bank, wallets, or no hot wallet) it is paid outside and marked paid.
 */
export function hasSignedPayout(withdrawal: Pick<AdminWithdrawal, 'txHash'>): boolean {
  return withdrawal.txHash !== null;
}

export type WithdrawalAction = 'approve' | 'reject' | 'markPaid' | 'retry' | 'refund';

/**
 * The actions a row offers, by its status and the operator's role (withdraw.review), mirroring the
 * server: a pending request is approved or rejected; an approved one paid outside is marked paid or
 * given up (refunded), while a signed payout is left to the tracker; a failed payout is retried or
 * refunded.
 */
export function withdrawalActions(
  role: OperatorRole,
  withdrawal: Pick<AdminWithdrawal, 'status' | 'txHash'>,
): WithdrawalAction[] {
  if (!operatorMay(role, 'withdraw.review')) return [];
  switch (withdrawal.status) {
    case 'pending':
      return ['approve', 'reject'];
    case 'processing':
      return hasSignedPayout(withdrawal) ? [] : ['markPaid', 'refund'];
    case 'failed':
      return ['retry', 'refund'];
    case 'success':
    case 'refunded':
      return [];
  }
}

export interface ActionText {
  /** Button text on the row and in the dialog. */
  button: string;
  /** Dialog title. */
  title: string;
  /** What the operator must type, if anything. */
  input: 'reason' | 'reference' | null;
  danger: boolean;
}

export const ACTION_TEXT: Record<WithdrawalAction, ActionText> = {
  approve: { button: 'Approve', title: 'Approve withdrawal', input: null, danger: false },
  reject: { button: 'Reject', title: 'Reject withdrawal', input: 'reason', danger: true },
  markPaid: { button: 'Mark paid', title: 'Mark withdrawal paid', input: 'reference', danger: false },
  retry: { button: 'Retry payout', title: 'Retry payout', input: null, danger: false },
  refund: { button: 'Refund', title: 'Refund withdrawal', input: 'reason', danger: true },
};

/**
 * What the action does, said in the dialog before the operator confirms. `hotWallets` are the
 * networks with a configured hot wallet (null while unknown).
 */
export function actionExplanation(
  action: WithdrawalAction,
  withdrawal: Pick<AdminWithdrawal, 'methodType' | 'network' | 'received' | 'status'>,
  hotWallets: readonly Network[] | null,
): string {
  const network = withdrawal.methodType === 'crypto' ? withdrawal.network : null;
  const outside = `Pay ${withdrawal.received} USDT outside the platform, then mark the withdrawal paid with the transaction hash or payment reference.`;
  switch (action) {
    case 'approve':
      if (!network) return outside;
      if (hotWallets === null) {
        return `If a ${network} hot wallet is configured, the server signs and broadcasts ${withdrawal.received} USDT from it at once; otherwise: ${outside}`;
      }
      return hotWallets.includes(network)
        ? `The server signs and broadcasts ${withdrawal.received} USDT on ${network} from the hot wallet at once.`
        : outside;
    case 'reject':
      return 'The held amount goes back to the member’s balance. The member sees the reason.';
    case 'markPaid':
      return network
        ? 'Confirm only after the transfer is on chain: enter its transaction hash, which the member sees with an explorer link.'
        : 'Confirm only after the money has been sent: enter the payment reference, which the member sees.';
    case 'retry':
      return `The server broadcasts the signed payout of ${withdrawal.received} USDT again (signed anew if its nonce was used).`;
    case 'refund':
      return withdrawal.status === 'failed'
        ? 'The payout is given up once it can never be mined: if its nonce is still open, a cancel transaction is sent first and the refund completes when that is mined (refund again then). The held amount goes back to the member’s balance; the member sees the reason.'
        : 'The payout is given up and the held amount goes back to the member’s balance. The member sees the reason.';
  }
}

/** The text typed for an action, or why it cannot be sent yet (the server's limits: 200 and 120 characters). */
export function actionInputProblem(action: WithdrawalAction, text: string): string | null {
  const input = ACTION_TEXT[action].input;
  if (!input) return null;
  const value = text.trim();
  if (!value) return input === 'reason' ? 'Enter the reason shown to the member' : 'Enter the payment reference';
  const limit = input === 'reason' ? 200 : 120;
  return value.length > limit ? `At most ${limit} characters` : null;
}

export function txUrl(network: Network, txHash: string): string {
  return `${EXPLORERS[network].tx}${txHash}`;
}

export function addressUrl(network: Network, address: string): string {
  return `${EXPLORERS[network].address}${address}`;
}

/** The network's own coin, which pays the payout's gas. */
export const NATIVE_ASSET: Record<Network, string> = { BEP20: 'BNB', TRC20: 'TRX' };

// ── Settings ─────────────────────────────────────────────────────────────────────────────────────

export const WEEKDAYS: readonly { value: number; label: string }[] = [
  { value: 1, label: 'Mon' },
  { value: 2, label: 'Tue' },
  { value: 3, label: 'Wed' },
  { value: 4, label: 'Thu' },
  { value: 5, label: 'Fri' },
  { value: 6, label: 'Sat' },
  { value: 7, label: 'Sun' },
];

/** The settings form: the same shape, every amount as typed. */
export type SettingsForm = WithdrawSettings;

export const SETTINGS_LABELS: Record<Exclude<keyof WithdrawSettings, 'methods'>, string> & {
  methods: Record<keyof WithdrawSettings['methods'], string>;
} = {
  enabled: 'Withdrawals enabled',
  feeFixed: 'Fixed fee',
  feeRate: 'Fee rate',
  minimum: 'Minimum per withdrawal',
  maximum: 'Maximum per withdrawal',
  dailyLimit: 'Daily limit per member',
  openDays: 'Open days',
  openTime: 'Opening time',
  closeTime: 'Closing time',
  securityCoolingOffHours: 'Pause after a security reset (hours)',
  methods: { crypto: 'Crypto (BEP20/TRC20)', bank: 'Bank card', wechat: 'WeChat Pay', alipay: 'Alipay' },
};

const MONEY_FIELDS = ['minimum', 'maximum', 'dailyLimit'] as const;

/**
 * The form's text as the settings the server takes, or the first problem: amounts with at most four
 * places (the fixed fee may be 0), the rate a fraction below 1, HH:MM times, minimum ≤ maximum.
 */
export function toWithdrawSettings(values: SettingsForm): { settings: WithdrawSettings } | { problem: string } {
  const amounts: Partial<Record<(typeof MONEY_FIELDS)[number], string>> = {};
  for (const field of MONEY_FIELDS) {
    const value = toMoneyString(values[field] ?? '');
    if (value === null || !money.isPositive(money.parseMoney(value))) {
      return { problem: `${SETTINGS_LABELS[field]}: enter a positive amount with at most 4 decimal places` };
    }
    amounts[field] = value;
  }
  const fixed = toMoneyString(values.feeFixed ?? '');
  if (fixed === null) return { problem: `${SETTINGS_LABELS.feeFixed}: enter an amount with at most 4 decimal places` };
  const feeRate = (values.feeRate ?? '').trim();
  if (!/^0(?:\.\d{1,8})?$/.test(feeRate)) {
    return {
      problem: `${SETTINGS_LABELS.feeRate}: enter a fraction below 1 with at most 8 decimal places, e.g. 0.001 for 0.1 %`,
    };
  }
  const parsed = withdrawSettingsSchema.safeParse({
    enabled: values.enabled,
    feeFixed: money.isPositive(money.parseMoney(fixed)) ? fixed : '0',
    feeRate,
    minimum: amounts.minimum,
    maximum: amounts.maximum,
    dailyLimit: amounts.dailyLimit,
    openDays: [...new Set(values.openDays ?? [])].sort((a, b) => a - b),
    openTime: (values.openTime ?? '').trim(),
    closeTime: (values.closeTime ?? '').trim(),
    methods: values.methods,
    securityCoolingOffHours: values.securityCoolingOffHours,
  });
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? '');
    const label = field in SETTINGS_LABELS ? SETTINGS_LABELS[field as Exclude<keyof WithdrawSettings, 'methods'>] : field;
    const hint =
      field === 'openTime' || field === 'closeTime'
        ? 'enter a time as HH:MM (00:00–23:59)'
        : field === 'securityCoolingOffHours'
          ? 'enter whole hours from 0 to 720'
          : 'invalid value';
    return { problem: `${String(label)}: ${hint}` };
  }
  const settings = parsed.data;
  if (money.parseMoney(settings.minimum) > money.parseMoney(settings.maximum)) {
    return { problem: 'The minimum must not be more than the maximum' };
  }
  return { settings };
}

function show(value: unknown): string {
  if (Array.isArray(value)) {
    return value.length === 0 ? 'none' : value.map((day: number) => WEEKDAYS[day - 1]?.label ?? String(day)).join(', ');
  }
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}

/** Every field that differs, as "label: before → after", for the confirmation. */
export function settingsChanges(
  saved: WithdrawSettings,
  next: WithdrawSettings,
): { label: string; before: string; after: string }[] {
  const changes: { label: string; before: string; after: string }[] = [];
  for (const key of Object.keys(SETTINGS_LABELS) as (keyof WithdrawSettings)[]) {
    if (key === 'methods') {
      for (const type of Object.keys(SETTINGS_LABELS.methods) as (keyof WithdrawSettings['methods'])[]) {
        if (saved.methods[type] !== next.methods[type]) {
          changes.push({
            label: SETTINGS_LABELS.methods[type],
            before: show(saved.methods[type]),
            after: show(next.methods[type]),
          });
        }
      }
      continue;
    }
    if (show(saved[key]) !== show(next[key])) {
      changes.push({ label: SETTINGS_LABELS[key], before: show(saved[key]), after: show(next[key]) });
    }
  }
  return changes;
}

/** The fee and what arrives for an amount, exactly as the server computes it (the rate part rounded up). */
export function feePreview(
  settings: Pick<WithdrawSettings, 'feeFixed' | 'feeRate'>,
  amount: string,
): { fee: string; received: string } {
  const value = money.parseMoney(amount);
  const fee = money.add(money.parseMoney(settings.feeFixed), money.multiply(value, settings.feeRate, 'up'));
  return { fee: money.formatMoney(fee), received: money.formatMoney(money.subtract(value, fee)) };
}

// ── Holidays ─────────────────────────────────────────────────────────────────────────────────────

/** A calendar date as the server takes it. */
export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

export const HOLIDAY_NOTE_MAX_LENGTH = 60;

/** Holidays in date order. */
export function sortHolidays<T extends { date: string }>(holidays: readonly T[]): T[] {
  return [...holidays].sort((a, b) => a.date.localeCompare(b.date));
}
