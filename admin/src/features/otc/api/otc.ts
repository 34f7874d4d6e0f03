import {
  adminOtcAppealsResponse,
  adminOtcChatResponse,
  adminOtcListingSchema,
  adminOtcListingsResponse,
  adminOtcOrderDetailSchema,
  adminOtcOrdersResponse,
  adminOtcRuleResponse,
  adminOtcSettingsResponse,
  adminOtcSuspensionsResponse,
  emptyResponse,
  type AdminOtcRuleRequest,
  type OtcAppealStatus,
  type OtcListingState,
  type OtcOrderState,
  type OtcSettings,
  type OtcSide,
} from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

const id = encodeURIComponent;

export interface OtcListingFilter {
  state: OtcListingState | null;
  side: OtcSide | null;
  /** Listing number or the lister's e-mail. */
  query: string;
}

export interface OtcOrderFilter {
  state: OtcOrderState | null;
  /** Order number, listing number or a party's e-mail. */
  query: string;
  /** The listing's side. */
  side: OtcSide | null;
  /** Platform days placed on, inclusive ('YYYY-MM-DD', '' for open). */
  from: string;
  to: string;
}

function pageParameters(page: number, pageSize: number): URLSearchParams {
  return new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
}

export function getOtcSettings() {
  return consoleRequest({ method: 'GET', path: '/api/admin/otc/settings', data: adminOtcSettingsResponse });
}

/** Saves the OTC settings (audited on the server with the values before and after). */
export function updateOtcSettings(settings: OtcSettings) {
  return consoleRequest({ method: 'PUT', path: '/api/admin/otc/settings', body: settings, data: adminOtcSettingsResponse });
}

export function listOtcAppeals(status: OtcAppealStatus, page: number, pageSize: number) {
  const parameters = pageParameters(page, pageSize);
  parameters.set('status', status);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/otc/appeals?${parameters.toString()}`,
    data: adminOtcAppealsResponse,
  });
}

export function listOtcListings(filter: OtcListingFilter, page: number, pageSize: number) {
  const parameters = pageParameters(page, pageSize);
  if (filter.state) parameters.set('state', filter.state);
  if (filter.side) parameters.set('side', filter.side);
  if (filter.query) parameters.set('query', filter.query);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/otc/listings?${parameters.toString()}`,
    data: adminOtcListingsResponse,
  });
}

/** Takes a listing off the market: its unmatched escrow returns to the lister; open orders finish (audited). */
export function revokeOtcListing(listingId: string, reason: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/otc/listings/${id(listingId)}/revoke`,
    body: { reason },
    data: adminOtcListingSchema,
  });
}

export function listOtcOrders(filter: OtcOrderFilter, page: number, pageSize: number) {
  const parameters = pageParameters(page, pageSize);
  if (filter.state) parameters.set('state', filter.state);
  if (filter.query) parameters.set('query', filter.query);
  if (filter.side) parameters.set('side', filter.side);
  if (filter.from) parameters.set('from', filter.from);
  if (filter.to) parameters.set('to', filter.to);
  return consoleRequest({ method: 'GET', path: `/api/admin/otc/orders?${parameters.toString()}`, data: adminOtcOrdersResponse });
}

export function getOtcOrder(orderId: string) {
  return consoleRequest({ method: 'GET', path: `/api/admin/otc/orders/${id(orderId)}`, data: adminOtcOrderDetailSchema });
}

/** A page of the order's chat, oldest first within the page; `before` pages back. */
export function getOtcOrderChat(orderId: string, before?: string) {
  const parameters = new URLSearchParams({ limit: '50' });
  if (before !== undefined) parameters.set('before', before);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/otc/orders/${id(orderId)}/chat?${parameters.toString()}`,
    data: adminOtcChatResponse,
  });
}

export function otcChatImagePath(orderId: string, messageId: string): string {
  return `/api/admin/otc/orders/${id(orderId)}/chat/${id(messageId)}/image`;
}

export function otcEvidencePath(orderId: string, uploadId: string): string {
  return `/api/admin/otc/orders/${id(orderId)}/evidence/${id(uploadId)}`;
}

/** Rules on an appealed order: moves the escrow, optionally forfeits the lister's deposit and suspends a party (audited). */
export function ruleOtcOrder(orderId: string, ruling: AdminOtcRuleRequest) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/otc/orders/${id(orderId)}/rule`,
    body: ruling,
    data: adminOtcRuleResponse,
  });
}

export function listOtcSuspensions() {
  return consoleRequest({ method: 'GET', path: '/api/admin/otc/suspensions', data: adminOtcSuspensionsResponse });
}

/** Lifts a member's OTC suspension now (audited). */
export function liftOtcSuspension(memberId: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/otc/suspensions/${id(memberId)}/lift`,
    body: {},
    data: emptyResponse,
  });
}
