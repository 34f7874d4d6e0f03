import { emptyResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function logout() {
  return consoleRequest({ method: 'POST', path: '/api/admin/auth/logout', data: emptyResponse });
}
