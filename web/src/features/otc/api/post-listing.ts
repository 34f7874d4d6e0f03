import { otcListingDetailSchema, type OtcPostListingRequest } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/otc/post: a sell listing holds its quantity and fee at once; the deposit is held while it lives. */
export function postListing(body: OtcPostListingRequest) {
  return apiRequest({ method: 'POST', path: '/api/otc/post', body, data: otcListingDetailSchema });
}
