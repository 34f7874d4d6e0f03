import {
  adminContractBookResponse,
  adminContractCloseResponse,
  adminContractOrdersResponse,
  adminContractProductsResponse,
  adminContractSettingsResponse,
  type ContractOrderState,
  type ContractProductSettings,
  type ContractSettings,
  type ManualContractQuoteRequest,
  contractManualQuoteSettingsResponse,
  contractQuoteProposalResponse,
  contractQuoteProposalsResponse,
  manualContractQuoteResponse,
  type ContractManualQuoteSettings,
  type ContractQuoteProposalStatus,
} from '@custos/contract';
import { z } from 'zod';
import { consoleRequest } from '../../../lib/api';

const id = encodeURIComponent;
const idAnswer = z.object({ id: z.string() });

export interface ContractOrderFilter {
  state: ContractOrderState | null;
  productId: string | null;
  /** An order number or the member's e-mail. */
  query: string;
}

export function getContractSettings() {
  return consoleRequest({ method: 'GET', path: '/api/admin/contracts/settings', data: adminContractSettingsResponse });
}

/** Saves the platform's contract settings (audited with the values before and after). */
export function updateContractSettings(settings: ContractSettings) {
  return consoleRequest({
    method: 'PUT',
    path: '/api/admin/contracts/settings',
    body: settings,
    data: adminContractSettingsResponse,
  });
}

/** Every market product (RAB/USDT aside) with its contract settings, quote and open orders. */
export function listContractProducts() {
  return consoleRequest({ method: 'GET', path: '/api/admin/contracts/products', data: adminContractProductsResponse });
}

/** Sets up or changes a product's contract settings (audited). */
export function updateContractProduct(productId: string, settings: ContractProductSettings) {
  return consoleRequest({
    method: 'PUT',
    path: `/api/admin/contracts/products/${id(productId)}`,
    body: settings,
    data: idAnswer,
  });
}

/**
 * An operator's bid/ask (decision 050): applied at once within the band of an independent price
 * (audited; the price watcher acts on it), else a proposal a second operator decides.
 */
export function setContractQuote(productId: string, quote: ManualContractQuoteRequest) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/contracts/products/${id(productId)}/quote`,
    body: quote,
    data: manualContractQuoteResponse,
  });
}

/** Manual quote proposals; `pending` are those a second operator may still decide. */
export function listQuoteProposals(status: ContractQuoteProposalStatus | null) {
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/contracts/quote-proposals${status ? `?status=${status}` : ''}`,
    data: contractQuoteProposalsResponse,
  });
}

/** Approves (the quote applies) or rejects another operator's quote proposal (audited). */
export function decideQuoteProposal(proposalId: string, decision: 'approve' | 'reject', note: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/contracts/quote-proposals/${id(proposalId)}/${decision}`,
    body: note.trim() ? { note: note.trim() } : {},
    data: contractQuoteProposalResponse,
  });
}

export function getManualQuoteSettings() {
  return consoleRequest({
    method: 'GET',
    path: '/api/admin/contracts/manual-quotes/settings',
    data: contractManualQuoteSettingsResponse,
  });
}

/** The band one operator may quote in, the reference's age and proposals' lifetime (audited). */
export function updateManualQuoteSettings(settings: ContractManualQuoteSettings) {
  return consoleRequest({
    method: 'PUT',
    path: '/api/admin/contracts/manual-quotes/settings',
    body: settings,
    data: contractManualQuoteSettingsResponse,
  });
}

/** The live book: exposure per product, members at risk, the book account. */
export function getContractBook() {
  return consoleRequest({ method: 'GET', path: '/api/admin/contracts/book', data: adminContractBookResponse });
}

export function listContractOrders(filter: ContractOrderFilter, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (filter.state) parameters.set('state', filter.state);
  if (filter.productId) parameters.set('productId', filter.productId);
  if (filter.query) parameters.set('query', filter.query);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/contracts/orders?${parameters.toString()}`,
    data: adminContractOrdersResponse,
  });
}

/** Closes a member's order at market with a reason the member sees (audited). */
export function closeContractOrder(orderId: string, reason: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/contracts/orders/${id(orderId)}/close`,
    body: { reason },
    data: adminContractCloseResponse,
  });
}
