import { emptyResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function approveIdentity(id: string) {
  return consoleRequest({ method: 'POST', path: `/api/admin/identity/${encodeURIComponent(id)}/approve`, data: emptyResponse });
}

export function failIdentity(id: string, reason: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/identity/${encodeURIComponent(id)}/fail`,
    body: { reason },
    data: emptyResponse,
  });
}
