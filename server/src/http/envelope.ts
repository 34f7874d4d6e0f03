import { BusinessCode, translate, type Locale } from '@custos/contract';

/** The success envelope; routes return this and the serializer checks `data` against the contract. */
export function ok<T>(locale: Locale, data: T): { code: typeof BusinessCode.OK; message: string; data: T } {
  return { code: BusinessCode.OK, message: translate(locale, 'ok'), data };
}
