import {
  DEFAULT_LOCALE,
  LANG_HEADER_BY_LOCALE,
  LOCALES,
  LOCALE_NATIVE_NAMES,
  type CommonConfig,
  type CommonLang,
  type Locale,
} from '@custos/contract';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { SettingsService } from '../settings/settings.service.js';

export class CommonService {
  constructor(
    private readonly settings: SettingsService,
    private readonly platformTimeZone: string,
    private readonly clock: Clock = systemClock,
  ) {}

  /** `locale`: the caller's language, for what the operator sets per language (community links). */
  async config(locale: Locale = DEFAULT_LOCALE): Promise<CommonConfig> {
    const site = await this.settings.get('site');
    const { links } = await this.settings.get('community_links');
    const own = links.find((entry) => entry.locale === locale) ?? links.find((entry) => entry.locale === site.defaultLocale);
    return {
      siteName: site.siteName,
      timeZone: this.platformTimeZone,
      defaultLocale: site.defaultLocale,
      locales: [...LOCALES],
      serverTime: this.clock.now().toISOString(),
      communityLinks: own ? { international: own.international, asiaPacific: own.asiaPacific } : site.communityLinks,
      customerServiceUrl: site.customerServiceUrl,
    };
  }

  lang(current: Locale): CommonLang {
    return {
      current,
      locales: LOCALES.map((locale) => ({
        locale,
        langHeader: LANG_HEADER_BY_LOCALE[locale],
        name: LOCALE_NATIVE_NAMES[locale],
      })),
    };
  }

  avatars(): Promise<string[]> {
    return this.settings.get('avatars');
  }
}
