import { hostingLogResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** An order's history, newest first: created, each day's interest, renewed, expired, redeemed, auto-renew. */
export function listHostingLog(query: { orderId: string; page: number; pageSize: number }) {
  return apiRequest({ method: 'GET', path: '/api/hosting/operator_log', query, data: hostingLogResponse });
}
