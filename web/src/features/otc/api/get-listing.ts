import { otcListingInfoResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/otc/listing_info?id=: a listing as the market shows it, with state and trail for its lister. */
export function getListing(id: string) {
  return apiRequest({ method: 'GET', path: '/api/otc/listing_info', query: { id }, data: otcListingInfoResponse });
}
