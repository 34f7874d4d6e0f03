import { interpolate, type Locale } from '@custos/contract';
import { en, type MailCatalogue } from './en.js';
import { ja } from './ja.js';
import { ko } from './ko.js';
import { th } from './th.js';
import { vi } from './vi.js';
import { zhHans } from './zh-Hans.js';
import { zhHant } from './zh-Hant.js';

export const MAIL_TEMPLATES: Record<Locale, MailCatalogue> = { 'zh-Hans': zhHans, en, ja, ko, th, vi, 'zh-Hant': zhHant };

export type MailTemplate =
  'register_code' | 'already_registered' | 'login_code' | 'reset_code' | 'trade_code' | 'login_attempts_notice';

export function renderMail(
  template: MailTemplate,
  locale: Locale,
  params: Record<string, string>,
): { subject: string; body: string } {
  const catalogue = MAIL_TEMPLATES[locale];
  return {
    subject: interpolate(catalogue[`${template}.subject`], params),
    body: interpolate(catalogue[`${template}.body`], params),
  };
}
