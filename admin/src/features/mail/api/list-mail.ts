import { adminMailResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function listMail(recipient: string, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (recipient) parameters.set('recipient', recipient);
  return consoleRequest({ method: 'GET', path: `/api/admin/mail?${parameters.toString()}`, data: adminMailResponse });
}
