import { otcListingDetailSchema } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/otc/revoke: off the market; what is not in open orders returns. */
export function revokeListing(listingId: string) {
  return apiRequest({ method: 'POST', path: '/api/otc/revoke', body: { listingId }, data: otcListingDetailSchema });
}
