import {
  contractProductSettingsSchema,
  contractSettingsSchema,
  fieldLabel,
  isMessageKey,
  translate,
  type ContractCloseReason,
  type ContractProductSettings,
  type ContractSession,
  type ContractSettings,
  type MessageKey,
} from '@custos/contract';

// The console's contracts logic (decision 035): settings and product forms checked with the
// contract's schemas and refused in the server's own English words.

export const CLOSE_REASON_LABELS: Record<ContractCloseReason, string> = {
  member: 'Member',
  take_profit: 'Take-profit',
  stop_loss: 'Stop-loss',
  stop_out: 'Stop-out',
  operator: 'Operator',
};

/** The field a contract issue is about: the last name in its path. */
export function issueField(issue: { path: readonly PropertyKey[] }): string {
  return String(issue.path.filter((segment) => typeof segment === 'string').at(-1) ?? 'body');
}

/** Why the contract's schema refused a field, as the server's English catalogue says it. */
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

type Checked<T> = { value: T } | { problem: string; field: string };

function missingField(values: Record<string, unknown>, keys: readonly string[]): string | undefined {
  return keys.find((key) => {
    const value = values[key];
    return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
  });
}

function required(field: string): { problem: string; field: string } {
  return { problem: translate('en', 'reason.required', { field: fieldLabel('en', field) }), field };
}

// ── Platform settings ────────────────────────────────────────────────────────────────────────────

export const SETTINGS_LABELS: Record<keyof ContractSettings, string> = {
  enabled: 'Members may open orders',
  stopOutLevelPct: 'Stop-out level (%)',
  marginCallLevelPct: 'Margin-call level (%)',
  priceStaleAfterS: 'A quote is stale after (s)',
  maxOpenOrders: 'Open orders per member at once',
};

/** The typed settings as the contract's, or the first refused field in the server's words. */
export function toContractSettings(form: ContractSettings): Checked<ContractSettings> {
  const missing = missingField(form, Object.keys(SETTINGS_LABELS));
  if (missing) return required(missing);
  const trimmed = {
    ...form,
    stopOutLevelPct: String(form.stopOutLevelPct).trim(),
    marginCallLevelPct: String(form.marginCallLevelPct).trim(),
  };
  const parsed = contractSettingsSchema.safeParse(trimmed);
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { problem: contractIssueText(issue), field: issueField(issue) };
}

function shown(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** What a save would change, for the confirmation: label, before → after. */
export function changesOf<T extends object>(
  labels: Partial<Record<keyof T, string>>,
  before: T | null,
  after: T,
): { label: string; before: string; after: string }[] {
  return (Object.keys(labels) as (keyof T)[])
    .filter((key) => before === null || shown(before[key]) !== shown(after[key]))
    .map((key) => ({ label: labels[key]!, before: before === null ? '—' : shown(before[key]), after: shown(after[key]) }));
}

// ── Product settings ─────────────────────────────────────────────────────────────────────────────

/** Monday first, as trading weeks are read; `day` as the contract counts it (0 = Sunday). */
export const WEEKDAYS = [
  { day: 1, name: 'Monday' },
  { day: 2, name: 'Tuesday' },
  { day: 3, name: 'Wednesday' },
  { day: 4, name: 'Thursday' },
  { day: 5, name: 'Friday' },
  { day: 6, name: 'Saturday' },
  { day: 0, name: 'Sunday' },
] as const;

/** A product's settings as typed: leverages as "10, 50, 100", each day's hours as "00:00-24:00" (several with commas, empty = closed). */
export interface ProductSettingsForm {
  digits: number | null;
  contractSize: string;
  leverages: string;
  minLots: string;
  lotStep: string;
  maxLots: string;
  spreadMarkupPoints: number | null;
  hours: Record<string, string>;
  swapEnabled: boolean;
  swapLongPct: string;
  swapShortPct: string;
  tradingEnabled: boolean;
}

export const PRODUCT_LABELS: Record<keyof ContractProductSettings, string> = {
  digits: 'Price digits',
  contractSize: 'Contract size (units per lot)',
  leverages: 'Leverages offered',
  minLots: 'Minimum lots',
  lotStep: 'Lot step',
  maxLots: 'Maximum lots',
  spreadMarkupPoints: 'Spread mark-up (points)',
  sessions: 'Trading hours (UTC)',
  swapEnabled: 'Swap charged',
  swapLongPct: 'Daily swap of a buy (%)',
  swapShortPct: 'Daily swap of a sell (%)',
  tradingEnabled: 'Members may open orders on it',
};

/** Defaults for a product being set up: a forex pair's, open around the clock, every figure for the operator to check. */
export const NEW_PRODUCT_FORM: ProductSettingsForm = {
  digits: 5,
  contractSize: '100000',
  leverages: '10, 50, 100',
  minLots: '0.01',
  lotStep: '0.01',
  maxLots: '10',
  spreadMarkupPoints: 0,
  hours: Object.fromEntries(WEEKDAYS.map(({ day }) => [String(day), '00:00-24:00'])),
  swapEnabled: false,
  swapLongPct: '0',
  swapShortPct: '0',
  tradingEnabled: true,
};

/** The form of stored settings. */
export function productForm(settings: ContractProductSettings | null): ProductSettingsForm {
  if (!settings) return NEW_PRODUCT_FORM;
  const hours: Record<string, string> = {};
  for (const { day } of WEEKDAYS) {
    hours[String(day)] = settings.sessions
      .filter((session) => session.day === day)
      .map((session) => `${session.open}-${session.close}`)
      .join(', ');
  }
  return {
    digits: settings.digits,
    contractSize: settings.contractSize,
    leverages: settings.leverages.join(', '),
    minLots: settings.minLots,
    lotStep: settings.lotStep,
    maxLots: settings.maxLots,
    spreadMarkupPoints: settings.spreadMarkupPoints,
    hours,
    swapEnabled: settings.swapEnabled,
    swapLongPct: settings.swapLongPct,
    swapShortPct: settings.swapShortPct,
    tradingEnabled: settings.tradingEnabled,
  };
}

const HOURS_PATTERN = /^(\d{2}:\d{2})\s*[-–]\s*(\d{2}:\d{2})$/;

/** The typed product settings as the contract's, or the first refused field in the server's words. */
export function toProductSettings(form: ProductSettingsForm): Checked<ContractProductSettings> {
  const missing = missingField(form as unknown as Record<string, unknown>, [
    'digits',
    'contractSize',
    'leverages',
    'minLots',
    'lotStep',
    'maxLots',
    'spreadMarkupPoints',
    'swapLongPct',
    'swapShortPct',
  ]);
  if (missing) return required(missing);
  const leverageTexts = form.leverages.split(/[\s,]+/).filter((part) => part !== '');
  if (leverageTexts.some((part) => !/^\d+$/.test(part))) {
    return {
      problem: translate('en', 'field_error', {
        field: fieldLabel('en', 'leverages'),
        reason: translate('en', 'reason.invalid'),
      }),
      field: 'leverages',
    };
  }
  const sessions: ContractSession[] = [];
  for (const { day } of WEEKDAYS) {
    const text = (form.hours[String(day)] ?? '').trim();
    if (text === '') continue;
    for (const part of text.split(',')) {
      const match = HOURS_PATTERN.exec(part.trim());
      if (!match) {
        return {
          problem: translate('en', 'field_error', {
            field: fieldLabel('en', 'sessions'),
            reason: translate('en', 'reason.time_of_day'),
          }),
          field: `hours.${day}`,
        };
      }
      sessions.push({ day, open: match[1]!, close: match[2]! });
    }
  }
  const parsed = contractProductSettingsSchema.safeParse({
    digits: form.digits,
    contractSize: form.contractSize.trim(),
    leverages: leverageTexts.map(Number),
    minLots: form.minLots.trim(),
    lotStep: form.lotStep.trim(),
    maxLots: form.maxLots.trim(),
    spreadMarkupPoints: form.spreadMarkupPoints,
    sessions,
    swapEnabled: form.swapEnabled,
    swapLongPct: form.swapLongPct.trim(),
    swapShortPct: form.swapShortPct.trim(),
    tradingEnabled: form.tradingEnabled,
  });
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field =
    issue.path[0] === 'sessions' && typeof issue.path[1] === 'number'
      ? `hours.${sessions[issue.path[1]]?.day ?? 1}`
      : issueField(issue);
  return { problem: contractIssueText(issue), field };
}

/** Trading hours in a line for the products table: "Mon–Fri …" is left to the form; here each open day and its hours. */
export function hoursText(sessions: readonly ContractSession[]): string {
  if (sessions.length === 0) return 'closed';
  if (WEEKDAYS.every(({ day }) => sessions.some((s) => s.day === day && s.open === '00:00' && s.close === '24:00')))
    return 'around the clock';
  return WEEKDAYS.filter(({ day }) => sessions.some((s) => s.day === day))
    .map(
      ({ day, name }) =>
        `${name.slice(0, 3)} ${sessions
          .filter((s) => s.day === day)
          .map((s) => `${s.open}–${s.close}`)
          .join(', ')}`,
    )
    .join(' · ');
}
