import { adminOperatorItem } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function resetOperatorTotp(id: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/operators/${encodeURIComponent(id)}/reset_totp`,
    data: adminOperatorItem,
  });
}
