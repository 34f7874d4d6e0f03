import { emptyResponse, otcMyListingSchema, otcOkResponse, otcOrderInfoResponse, otcOrderSchema } from '@custos/contract';

/**
 * What the OTC changes answer. The contract names no response for them (decision 031): an order
 * action answers the order, a listing action the listing, or just "ok". The screens refetch what
 * changed either way; taking a listing needs the new order's id.
 */
export const orderActionResponse = otcOrderInfoResponse.or(otcOkResponse).or(emptyResponse);
export const listingActionResponse = otcMyListingSchema.or(otcOkResponse).or(emptyResponse);
export const takeResponse = otcOrderSchema.pick({ id: true });
