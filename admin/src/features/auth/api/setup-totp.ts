import { operatorTotpSetupResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function setupTotp() {
  return consoleRequest({ method: 'POST', path: '/api/admin/auth/totp/setup', data: operatorTotpSetupResponse });
}
