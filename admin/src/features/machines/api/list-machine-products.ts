import { adminMachineProductsResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Every machine product, on sale and retired, with how many bought machines still run on it. */
export function listMachineProducts() {
  return consoleRequest({ method: 'GET', path: '/api/admin/machines/products', data: adminMachineProductsResponse });
}
