import { resetMemberPasswordResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function resetMemberPassword(id: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/members/${encodeURIComponent(id)}/reset_password`,
    data: resetMemberPasswordResponse,
  });
}
