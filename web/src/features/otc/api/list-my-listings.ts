import { otcMyListingsResponse, type OtcListingState } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/otc/my_listings: my listings, newest first. */
export function listMyListings(query: { page: number; pageSize: number; state?: OtcListingState }) {
  return apiRequest({ method: 'GET', path: '/api/otc/my_listings', query, data: otcMyListingsResponse });
}
