import { withdrawMethodSchema } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** Saves a bank card; answers the saved method. */
export function addBankMethod(body: { bankName: string; cardNumber: string; holderName: string; branch: string }) {
  return apiRequest({ method: 'POST', path: '/api/withdraw/add_bank', body, data: withdrawMethodSchema });
}
