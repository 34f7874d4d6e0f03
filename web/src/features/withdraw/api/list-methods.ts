import { withdrawMethodsResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function listMethods() {
  return apiRequest({ method: 'GET', path: '/api/withdraw/methods', data: withdrawMethodsResponse });
}
