import { contractProductsResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/contracts/products: the forex products members trade, with the platform's bid and ask and whether they open now. */
export function listContractProducts() {
  return apiRequest({ method: 'GET', path: '/api/contracts/products', data: contractProductsResponse });
}
