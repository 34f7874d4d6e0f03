import { aiReceiveResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** Claims every claimable share into cash at once; 409 with the server's message when there is nothing. */
export function claimDividend() {
  return apiRequest({ method: 'POST', path: '/api/ai/receive', body: {}, data: aiReceiveResponse });
}
