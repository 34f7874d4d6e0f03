/** The screens of this feature, by the spec's paths. */
export const WITHDRAW_PATH = '/pages/withdraw/withdraw';
export const METHODS_PATH = '/pages/withdraw/withdraw2';
export const ADD_CRYPTO_PATH = '/pages/withdraw/withdraw3';
export const ADD_BANK_PATH = '/pages/withdraw/withdraw4';
export const WITHDRAW_RECORDS_PATH = '/pages/withdraw_record/withdraw_record';

export function withdrawalDetailPath(id: string): string {
  return `/pages/withdraw_record/withdraw_record2?id=${encodeURIComponent(id)}`;
}
