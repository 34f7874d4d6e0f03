import { adminPlatformAccountsResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function listPlatformAccounts() {
  return consoleRequest({ method: 'GET', path: '/api/admin/ledger/platform', data: adminPlatformAccountsResponse });
}
