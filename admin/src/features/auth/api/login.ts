import { operatorLoginResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function login(username: string, password: string) {
  return consoleRequest({
    method: 'POST',
    path: '/api/admin/auth/login',
    body: { username, password },
    data: operatorLoginResponse,
  });
}
