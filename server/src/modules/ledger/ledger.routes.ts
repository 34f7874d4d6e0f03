import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adjustmentIdParams,
  adjustmentSchema,
  adjustmentsQuery,
  adjustmentsResponse,
  adminMemberBalancesResponse,
  adminPlatformAccountsResponse,
  adminPostingsQuery,
  adminPostingsResponse,
  decideAdjustmentRequest,
  envelopeOf,
  ledgerReportSchema,
  memberIdParams,
  proposeAdjustmentRequest,
} from '@custos/contract';
import { AppError } from '../../http/app-error.js';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import type { AccountRepository } from '../accounts/account.repository.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { AdjustmentService } from './adjustment.service.js';
import type { LedgerService } from './ledger.service.js';

const tags = ['console: ledger'];
const security = [{ operatorToken: [] }];

export const ledgerRoutes: FastifyPluginAsyncZod<{
  ledger: LedgerService;
  adjustments: AdjustmentService;
  accounts: AccountRepository;
  operators: OperatorService;
}> = async (app, { ledger, adjustments, accounts, operators }) => {
  const reader = requirePermission(operators, 'ledger.read');

  app.get(
    '/api/admin/members/:id/balances',
    {
      onRequest: reader,
      schema: {
        tags,
        security,
        summary: 'Every balance of every account of a member',
        params: memberIdParams,
        response: { 200: envelopeOf(adminMemberBalancesResponse) },
      },
    },
    async (request) => {
      const owned = await accounts.listForMember(request.params.id);
      if (owned.length === 0) throw AppError.notFound();
      const ledgerAccounts = await ledger.ledgerAccountsOf(owned.map((account) => account.id));
      return ok(
        request.locale,
        owned.map((account) => ({
          accountId: account.id,
          kind: account.kind === 'sub' ? ('sub' as const) : ('main' as const),
          nickname: account.nickname,
          ledgerAccounts: ledgerAccounts.filter((row) => row.ownerAccountId === account.id),
        })),
      );
    },
  );

  app.get(
    '/api/admin/ledger/postings',
    {
      onRequest: reader,
      schema: {
        tags,
        security,
        summary: 'Postings of a member account or of one ledger account, newest first',
        querystring: adminPostingsQuery,
        response: { 200: envelopeOf(adminPostingsResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, accountId, ledgerAccountId } = request.query;
      const { rows, total } = await ledger.adminPostings(
        { ownerAccountId: accountId, ledgerAccountId },
        { limit: pageSize, offset: (page - 1) * pageSize },
      );
      return ok(request.locale, {
        items: rows.map((row) => ({
          id: row.id,
          entryId: row.entry_id,
          entryKind: row.kind,
          ledgerAccountId: row.ledger_account_id,
          purpose: row.purpose,
          asset: row.asset,
          amount: row.amount,
          balanceAfter: row.balance_after,
          type: row.record_type,
          referenceType: row.reference_type,
          referenceId: row.reference_id,
          idempotencyKey: row.idempotency_key,
          createdAt: new Date(row.created_at).toISOString(),
        })),
        total,
        page,
        pageSize,
      });
    },
  );

  app.get(
    '/api/admin/ledger/platform',
    {
      onRequest: reader,
      schema: {
        tags,
        security,
        summary: 'Platform accounts and their balances',
        response: { 200: envelopeOf(adminPlatformAccountsResponse) },
      },
    },
    async (request) => ok(request.locale, await ledger.platformAccounts()),
  );

  app.get(
    '/api/admin/ledger/verify',
    {
      onRequest: reader,
      schema: { tags, security, summary: 'Run the ledger invariant checker', response: { 200: envelopeOf(ledgerReportSchema) } },
    },
    async (request) => ok(request.locale, await ledger.verify()),
  );

  app.get(
    '/api/admin/ledger/adjustments',
    {
      onRequest: reader,
      schema: {
        tags,
        security,
        summary: 'Manual adjustments, newest first',
        querystring: adjustmentsQuery,
        response: { 200: envelopeOf(adjustmentsResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await adjustments.list(request.query.status, request.query.page, request.query.pageSize)),
  );

  app.post(
    '/api/admin/ledger/adjustments',
    {
      onRequest: requirePermission(operators, 'ledger.propose'),
      schema: {
        tags,
        security,
        summary: 'Propose a manual credit or debit (another operator approves)',
        body: proposeAdjustmentRequest,
        response: { 200: envelopeOf(adjustmentSchema) },
      },
    },
    async (request) =>
      ok(request.locale, await adjustments.propose(sessionOf(request).operator.id, request.body, originOf(request))),
  );

  for (const decision of ['approve', 'reject'] as const) {
    app.post(
      `/api/admin/ledger/adjustments/:id/${decision}`,
      {
        onRequest: requirePermission(operators, 'ledger.approve'),
        schema: {
          tags,
          security,
          summary: decision === 'approve' ? 'Approve and post an adjustment' : 'Reject an adjustment',
          params: adjustmentIdParams,
          body: decideAdjustmentRequest,
          response: { 200: envelopeOf(adjustmentSchema) },
        },
      },
      async (request) => {
        const operatorId = sessionOf(request).operator.id;
        const note = request.body.note || undefined;
        const result =
          decision === 'approve'
            ? await adjustments.approve(operatorId, request.params.id, note, originOf(request))
            : await adjustments.reject(operatorId, request.params.id, note, originOf(request));
        return ok(request.locale, result);
      },
    );
  }
};
