import { emptyResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function setMemberFrozen(id: string, frozen: boolean, reason: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/members/${encodeURIComponent(id)}/${frozen ? 'freeze' : 'unfreeze'}`,
    body: { reason },
    data: emptyResponse,
  });
}
