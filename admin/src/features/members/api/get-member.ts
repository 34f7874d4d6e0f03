import { adminMemberDetail } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function getMember(id: string) {
  return consoleRequest({ method: 'GET', path: `/api/admin/members/${encodeURIComponent(id)}`, data: adminMemberDetail });
}
