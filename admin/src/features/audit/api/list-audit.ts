import { adminAuditResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function listAudit(filter: { action: string; targetId: string }, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (filter.action) parameters.set('action', filter.action);
  if (filter.targetId) parameters.set('targetId', filter.targetId);
  return consoleRequest({ method: 'GET', path: `/api/admin/audit?${parameters.toString()}`, data: adminAuditResponse });
}
