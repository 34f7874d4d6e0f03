import { operatorChangePasswordResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function changePassword(oldPassword: string, newPassword: string) {
  return consoleRequest({
    method: 'POST',
    path: '/api/admin/auth/password',
    body: { oldPassword, newPassword },
    data: operatorChangePasswordResponse,
  });
}
