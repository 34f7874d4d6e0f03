import { operatorMeResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function getMe() {
  return consoleRequest({ method: 'GET', path: '/api/admin/auth/me', data: operatorMeResponse });
}
