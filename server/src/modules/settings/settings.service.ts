import { z } from 'zod';
import {
  DEFAULT_LOCALE,
  DOCUMENT_DEFAULT_MAX_BYTES,
  LOCALES,
  communityLinksResponse,
  documentSettingsSchema,
  OTC_SETTINGS_DEFAULTS,
  otcSettingsSchema,
  CONTRACT_SETTINGS_DEFAULTS,
  contractSettingsSchema,
  CONTRACT_MANUAL_QUOTE_DEFAULTS,
  contractManualQuoteSettingsSchema,
  exchangeSettingsSchema,
  quoteFeedSettingsSchema,
  teamEarningsSettingsSchema,
  withdrawSettingsSchema,
} from '@custos/contract';
import type { Db, Tx } from '../../db/client.js';
import { newInviteCode } from '../../lib/tokens.js';
import type { SettingsRepository } from './settings.repository.js';

/** Each setting: its schema and the value a new platform starts with (product.md §5 defaults). */
export const SETTINGS = {
  site: {
    schema: z.object({
      siteName: z.string().min(1),
      defaultLocale: z.enum(LOCALES),
      communityLinks: z.object({ international: z.string(), asiaPacific: z.string() }),
      customerServiceUrl: z.string(),
    }),
    defaults: {
      siteName: 'Custos',
      defaultLocale: DEFAULT_LOCALE,
      communityLinks: { international: '', asiaPacific: '' },
      customerServiceUrl: '',
    },
  },
  /** setting5's community groups, per language (decision 026); a language without its own uses the default's. */
  community_links: {
    schema: communityLinksResponse,
    defaults: { links: [] },
  },
  /** How many sub-accounts a member may create under the main account. */
  accounts: {
    schema: z.object({ subAccountLimit: z.number().int().min(0).max(100) }),
    defaults: { subAccountLimit: 5 },
  },
  /** Avatars members pick from (files shipped with the member app under avatars/). */
  avatars: {
    schema: z.array(z.string().min(1)),
    defaults: Array.from({ length: 12 }, (_, index) => `avatars/a${String(index + 1).padStart(2, '0')}.svg`),
  },
  /** The platform's own invitation code: members who register with it are roots of the invitation tree. */
  registration: {
    schema: z.object({ rootInviteCode: z.string().regex(/^[A-Z0-9]{6,16}$/) }),
    defaults: () => ({ rootInviteCode: newInviteCode() }),
  },
  /** RAB ⇄ USDT exchange: the operator's price, fee and minimums. */
  exchange: {
    schema: exchangeSettingsSchema,
    defaults: { enabled: true, rabPriceUsdt: '0.5', feeRate: '0.005', minRab: '10.0000', minUsdt: '5.0000' },
  },
  /** Withdrawals: fee, limits, the weekly window and which method types members may use. */
  withdraw: {
    schema: withdrawSettingsSchema,
    defaults: {
      enabled: true,
      feeFixed: '1.0000',
      feeRate: '0',
      minimum: '10.0000',
      maximum: '50000.0000',
      dailyLimit: '100000.0000',
      openDays: [1, 2, 3, 4, 5],
      openTime: '09:00',
      closeTime: '21:00',
      methods: { crypto: true, bank: true, wechat: false, alipay: false },
      securityCoolingOffHours: 24,
    },
  },
  /**
   * Team earnings (docs/decisions/024-team-earnings.md): a day's earnings arrive at the settlement this
   * many days later (1: the next settlement), fixed for the day when it is computed.
   */
  team_earnings: {
    schema: teamEarningsSettingsSchema,
    defaults: { arrivalDelayDays: 1 },
  },
  /** Home quotes' ticker feed (decision 027): off until an operator turns it on. */
  quotes_feed: {
    schema: quoteFeedSettingsSchema,
    defaults: { enabled: false, baseUrl: 'https://api.binance.com', timeoutMs: 5000, staleAfterS: 300, intervalS: 60 },
  },
  /** Platform documents (decision 028): the largest PDF an operator may upload. */
  documents: {
    schema: documentSettingsSchema,
    defaults: { maxBytes: DOCUMENT_DEFAULT_MAX_BYTES },
  },
  /** OTC trading (decision 031): guide price and band, maker fee, windows, limits, deposit. */
  otc: {
    schema: otcSettingsSchema,
    defaults: OTC_SETTINGS_DEFAULTS,
  },
  /** Contracts (decision 034): trading on or off, stop-out and margin-call levels, price staleness, open orders. */
  contracts: {
    schema: contractSettingsSchema,
    defaults: CONTRACT_SETTINGS_DEFAULTS,
  },
  /** Manual contract quotes (decision 050): the band one operator may quote in, the reference's age, proposals' lifetime. */
  contracts_manual_quotes: {
    schema: contractManualQuoteSettingsSchema,
    defaults: CONTRACT_MANUAL_QUOTE_DEFAULTS,
  },
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = z.infer<(typeof SETTINGS)[K]['schema']>;

/** Most defaults are fixed; some (a random code) are made when the platform is first set up. */
function defaultsOf(setting: { defaults: unknown }): unknown {
  return typeof setting.defaults === 'function' ? (setting.defaults as () => unknown)() : setting.defaults;
}

export class SettingsService {
  constructor(private readonly repository: SettingsRepository) {}

  /** Seeds every default that is missing (first start, or a setting added by an upgrade). */
  async ensureDefaults(): Promise<void> {
    const defaults = Object.fromEntries(Object.entries(SETTINGS).map(([key, setting]) => [key, defaultsOf(setting)]));
    await this.repository.insertMissing(defaults);
  }

  /** A setting's current value; a stored value that no longer fits its schema falls back to defaults. */
  async get<K extends SettingKey>(key: K): Promise<SettingValue<K>> {
    const setting = SETTINGS[key];
    const parsed = setting.schema.safeParse(await this.repository.get(key));
    return (parsed.success ? parsed.data : defaultsOf(setting)) as SettingValue<K>;
  }

  /** A setting's value and when it was last written (null: never stored, the defaults apply). */
  async getStamped<K extends SettingKey>(key: K): Promise<{ value: SettingValue<K>; updatedAt: Date | null }> {
    const stored = await this.repository.getStamped(key);
    const parsed = SETTINGS[key].schema.safeParse(stored?.value);
    return {
      value: (parsed.success ? parsed.data : defaultsOf(SETTINGS[key])) as SettingValue<K>,
      updatedAt: parsed.success && stored ? stored.updatedAt : null,
    };
  }

  async set<K extends SettingKey>(key: K, value: SettingValue<K>, operatorId: string | null, tx?: Db | Tx): Promise<void> {
    await this.repository.set(key, SETTINGS[key].schema.parse(value), operatorId, tx);
  }
}
