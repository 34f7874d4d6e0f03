import { forexProductsResponse } from '@custos/contract';
import { apiRequest } from '../lib/api/client';

/** The forex product list: Home's quotes (RAB/USDT and the operator's pairs). */
export function getForexProducts() {
  return apiRequest({ method: 'GET', path: '/api/common/forex_products', data: forexProductsResponse });
}
