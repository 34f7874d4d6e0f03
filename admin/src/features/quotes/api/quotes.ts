import {
  adminQuotesResponse,
  quoteFeedSettingsSchema,
  savedProductResponse,
  type MarketProductRequest,
  type QuoteFeedSettings,
} from '@custos/contract';
import { z } from 'zod';
import { consoleRequest } from '../../../lib/api';

export function getQuotes() {
  return consoleRequest({ method: 'GET', path: '/api/admin/quotes', data: adminQuotesResponse });
}

export function saveProduct(id: string | null, body: MarketProductRequest) {
  return consoleRequest({
    method: id ? 'PUT' : 'POST',
    path: id ? `/api/admin/quotes/products/${encodeURIComponent(id)}` : '/api/admin/quotes/products',
    body,
    data: savedProductResponse,
  });
}

export function setManualPrice(id: string, price: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/quotes/products/${encodeURIComponent(id)}/price`,
    body: { price },
    data: savedProductResponse,
  });
}

export function saveFeedSettings(body: QuoteFeedSettings) {
  return consoleRequest({ method: 'PUT', path: '/api/admin/quotes/feed', body, data: quoteFeedSettingsSchema });
}

export function fetchFeedNow() {
  return consoleRequest({
    method: 'POST',
    path: '/api/admin/quotes/feed/fetch',
    data: z.object({ fetched: z.boolean(), updated: z.number(), error: z.string().nullable() }),
  });
}
