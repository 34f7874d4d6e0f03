import { adminOperatorsResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function listOperators() {
  return consoleRequest({ method: 'GET', path: '/api/admin/operators', data: adminOperatorsResponse });
}
