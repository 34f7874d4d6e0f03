import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function switchAccount(body: { accountId: string }) {
  return apiRequest({ method: 'POST', path: '/api/account/switch', body, data: emptyResponse });
}
