import { resetOperatorPasswordResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function resetOperatorPassword(id: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/operators/${encodeURIComponent(id)}/reset_password`,
    data: resetOperatorPasswordResponse,
  });
}
