import { z } from 'zod';
import { LOCALES } from '../locales.js';

/** GET /api/common/config: what the apps need before anything else. */
export const commonConfigResponse = z.object({
  siteName: z.string(),
  /** IANA time zone of the platform day (withdrawal window, daily settlement). */
  timeZone: z.string(),
  defaultLocale: z.enum(LOCALES),
  locales: z.array(z.enum(LOCALES)),
  /** Server clock, ISO 8601, so the apps can show countdowns without trusting the device clock. */
  serverTime: z.iso.datetime(),
  communityLinks: z.object({ international: z.string(), asiaPacific: z.string() }),
  customerServiceUrl: z.string(),
});
export type CommonConfig = z.infer<typeof commonConfigResponse>;

/** GET /api/common/lang: the languages and which one this request was answered in. */
export const commonLangResponse = z.object({
  current: z.enum(LOCALES),
  locales: z.array(
    z.object({
      locale: z.enum(LOCALES),
      langHeader: z.string(),
      name: z.string(),
    }),
  ),
});
export type CommonLang = z.infer<typeof commonLangResponse>;

export const healthResponse = z.object({
  status: z.enum(['ok', 'stopping']),
  database: z.enum(['pglite', 'postgres']),
  uptimeS: z.number().int().nonnegative(),
});
