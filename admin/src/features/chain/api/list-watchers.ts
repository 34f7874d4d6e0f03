import { adminWatchersResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function listWatchers() {
  return consoleRequest({ method: 'GET', path: '/api/admin/chain/watchers', data: adminWatchersResponse });
}
