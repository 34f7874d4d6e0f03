import { operatorLoginResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Username and password, and the authenticator code once the server has asked for it (4010). */
export function login(username: string, password: string, googleCode?: string) {
  return consoleRequest({
    method: 'POST',
    path: '/api/admin/auth/login',
    body: { username, password, ...(googleCode === undefined ? {} : { googleCode }) },
    data: operatorLoginResponse,
  });
}
