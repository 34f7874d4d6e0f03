import { adminOperatorItem } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function setOperatorDisabled(id: string, disabled: boolean) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/operators/${encodeURIComponent(id)}/${disabled ? 'disable' : 'enable'}`,
    data: adminOperatorItem,
  });
}
