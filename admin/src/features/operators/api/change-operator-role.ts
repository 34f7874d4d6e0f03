import { adminOperatorItem, type OperatorRole } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function changeOperatorRole(id: string, role: OperatorRole) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/operators/${encodeURIComponent(id)}/role`,
    body: { role },
    data: adminOperatorItem,
  });
}
