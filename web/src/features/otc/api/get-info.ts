import { otcInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/otc/info: guide price, band, limits, windows, deposit, and what I may do (real name, suspension). */
export function getOtcInfo() {
  return apiRequest({ method: 'GET', path: '/api/otc/info', data: otcInfoResponse });
}
