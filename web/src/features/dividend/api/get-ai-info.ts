import { aiInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** The AI dividend: claimable and claimed, validity, the last pool, and a page of release records. */
export function getAiInfo(query: { page: number; pageSize: number }) {
  return apiRequest({ method: 'GET', path: '/api/ai/info', query, data: aiInfoResponse });
}
