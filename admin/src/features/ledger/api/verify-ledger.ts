import { ledgerReportSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Runs the invariant checker on the server (a full scan of the journal). */
export function verifyLedger() {
  return consoleRequest({ method: 'GET', path: '/api/admin/ledger/verify', data: ledgerReportSchema });
}
