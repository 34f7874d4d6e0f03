import { hotWalletsResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** The payout wallet of each network: configured or not, its address and balances (or why they could not be read). */
export function listHotWallets() {
  return consoleRequest({ method: 'GET', path: '/api/admin/chain/hot_wallet', data: hotWalletsResponse });
}
