import { operatorTotpBindResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function bindTotp(googleCode: string) {
  return consoleRequest({
    method: 'POST',
    path: '/api/admin/auth/totp/bind',
    body: { googleCode },
    data: operatorTotpBindResponse,
  });
}
