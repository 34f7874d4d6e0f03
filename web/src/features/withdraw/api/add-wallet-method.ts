import { withdrawMethodSchema } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** Saves a WeChat Pay or Alipay account (only offered when the operator turned the kind on); answers the saved method. */
export function addWalletMethod(type: 'wechat' | 'alipay', body: { holderName: string; account: string }) {
  return apiRequest({ method: 'POST', path: `/api/withdraw/add_${type}`, body, data: withdrawMethodSchema });
}
