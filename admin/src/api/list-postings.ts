import { adminPostingsResponse } from '@custos/contract';
import { consoleRequest } from '../lib/api';

/** Which postings: of a member account (all its ledger accounts) or of one ledger account. */
export type PostingsFilter = { accountId: string } | { ledgerAccountId: string };

export function listPostings(filter: PostingsFilter, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if ('accountId' in filter) parameters.set('accountId', filter.accountId);
  else parameters.set('ledgerAccountId', filter.ledgerAccountId);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/ledger/postings?${parameters.toString()}`,
    data: adminPostingsResponse,
  });
}
