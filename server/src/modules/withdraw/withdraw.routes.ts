import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addBankMethodRequest,
  addCryptoMethodRequest,
  addHolidayRequest,
  addWalletMethodRequest,
  adminWithdrawSettingsResponse,
  adminWithdrawalSchema,
  adminWithdrawalsQuery,
  adminWithdrawalsResponse,
  deleteMethodRequest,
  envelopeOf,
  holidayDateParams,
  holidaysResponse,
  hotWalletsResponse,
  markPaidRequest,
  rejectWithdrawalRequest,
  updateWithdrawSettingsRequest,
  withdrawIndexResponse,
  withdrawListQuery,
  withdrawListResponse,
  withdrawMethodSchema,
  withdrawMethodsResponse,
  withdrawRequest,
  withdrawResponse,
  withdrawalIdParams,
  withdrawalSchema,
} from '@custos/contract';
import { ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import type { AuthService } from '../auth/auth.service.js';
import { memberOf, requireMember } from '../auth/member-session.js';
import { requirePermission, sessionOf } from '../operators/operator.routes.js';
import type { OperatorService } from '../operators/operator.service.js';
import type { WithdrawService } from './withdraw.service.js';

const tags = ['member: withdraw'];
const security = [{ memberToken: [] }];
const consoleTags = ['console: withdrawals'];
const operatorSecurity = [{ operatorToken: [] }];

export const withdrawRoutes: FastifyPluginAsyncZod<{
  service: WithdrawService;
  auth: AuthService;
  operators: OperatorService;
}> = async (app, { service, auth, operators }) => {
  const onRequest = requireMember(auth);
  const member = { onRequest };

  app.get(
    '/api/withdraw/index',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Balance, fee, limits, window and methods for the withdraw screen',
        response: { 200: envelopeOf(withdrawIndexResponse) },
      },
    },
    async (request) => ok(request.locale, await service.index(memberOf(request))),
  );
  app.get(
    '/api/withdraw/list',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Withdrawals, newest first',
        querystring: withdrawListQuery,
        response: { 200: envelopeOf(withdrawListResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.list(memberOf(request), request.query.status, request.query.page, request.query.pageSize)),
  );
  app.get(
    '/api/withdraw/detail',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'One withdrawal',
        querystring: withdrawalIdParams,
        response: { 200: envelopeOf(withdrawalSchema) },
      },
    },
    async (request) => ok(request.locale, await service.detail(memberOf(request), request.query.id)),
  );
  app.post(
    '/api/withdraw/withdraw',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Request a withdrawal: holds the amount until it is paid or refunded (idempotent per key)',
        body: withdrawRequest,
        response: { 200: envelopeOf(withdrawResponse) },
      },
    },
    async (request) => ok(request.locale, await service.withdraw(memberOf(request), request.body)),
  );
  app.get(
    '/api/withdraw/methods',
    {
      ...member,
      schema: { tags, security, summary: 'Saved withdrawal methods', response: { 200: envelopeOf(withdrawMethodsResponse) } },
    },
    async (request) => ok(request.locale, await service.methods(memberOf(request))),
  );
  app.post(
    '/api/withdraw/add_chain',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Save a crypto address (BEP20 or TRC20)',
        body: addCryptoMethodRequest,
        response: { 200: envelopeOf(withdrawMethodSchema) },
      },
    },
    async (request) => ok(request.locale, await service.addCrypto(memberOf(request), request.body)),
  );
  app.post(
    '/api/withdraw/add_bank',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Save a bank card',
        body: addBankMethodRequest,
        response: { 200: envelopeOf(withdrawMethodSchema) },
      },
    },
    async (request) => ok(request.locale, await service.addBank(memberOf(request), request.body)),
  );
  for (const type of ['wechat', 'alipay'] as const) {
    app.post(
      `/api/withdraw/add_${type}`,
      {
        ...member,
        schema: {
          tags,
          security,
          summary: `Save a ${type} account (when enabled)`,
          body: addWalletMethodRequest,
          response: { 200: envelopeOf(withdrawMethodSchema) },
        },
      },
      async (request) => ok(request.locale, await service.addWallet(memberOf(request), type, request.body)),
    );
  }
  app.post(
    '/api/withdraw/delete_method',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'Delete a saved method',
        body: deleteMethodRequest,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await service.deleteMethod(memberOf(request), request.body.id);
      return ok(request.locale, null);
    },
  );

  // ── Console ──────────────────────────────────────────────────────────────────────────────────
  const reader = { onRequest: requirePermission(operators, 'chain.read') };
  const reviewer = { onRequest: requirePermission(operators, 'withdraw.review') };
  const settingsWriter = { onRequest: requirePermission(operators, 'withdraw.settings') };
  const one = envelopeOf(adminWithdrawalSchema);

  app.get(
    '/api/admin/withdrawals',
    {
      ...reader,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'The withdrawal queue with KYC, history and risk hints',
        querystring: adminWithdrawalsQuery,
        response: { 200: envelopeOf(adminWithdrawalsResponse) },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      return ok(request.locale, await service.adminList(filter, page, pageSize));
    },
  );
  app.post(
    '/api/admin/withdrawals/:id/approve',
    {
      ...reviewer,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Approve: BEP20 is signed and broadcast by the hot wallet; others wait to be marked paid (audited)',
        params: withdrawalIdParams,
        response: { 200: one },
      },
    },
    async (request) =>
      ok(request.locale, await service.approve(sessionOf(request).operator.id, request.params.id, originOf(request))),
  );
  app.post(
    '/api/admin/withdrawals/:id/reject',
    {
      ...reviewer,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Reject with a reason shown to the member; the hold is released (audited)',
        params: withdrawalIdParams,
        body: rejectWithdrawalRequest,
        response: { 200: one },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.reject(sessionOf(request).operator.id, request.params.id, request.body.reason, originOf(request)),
      ),
  );
  app.post(
    '/api/admin/withdrawals/:id/mark_paid',
    {
      ...reviewer,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Mark a TRC20, bank or wallet payout paid with its reference (audited)',
        params: withdrawalIdParams,
        body: markPaidRequest,
        response: { 200: one },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.markPaid(sessionOf(request).operator.id, request.params.id, request.body.reference, originOf(request)),
      ),
  );
  app.post(
    '/api/admin/withdrawals/:id/retry',
    {
      ...reviewer,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Send a failed BEP20 payout again (audited)',
        params: withdrawalIdParams,
        response: { 200: one },
      },
    },
    async (request) =>
      ok(request.locale, await service.retry(sessionOf(request).operator.id, request.params.id, originOf(request))),
  );
  app.post(
    '/api/admin/withdrawals/:id/refund',
    {
      ...reviewer,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Give up a failed payout and return the held amount (audited)',
        params: withdrawalIdParams,
        body: rejectWithdrawalRequest,
        response: { 200: one },
      },
    },
    async (request) =>
      ok(
        request.locale,
        await service.refund(sessionOf(request).operator.id, request.params.id, request.body.reason, originOf(request)),
      ),
  );
  app.get(
    '/api/admin/withdraw/settings',
    {
      ...reader,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Withdrawal fee, limits, window and method types',
        response: { 200: envelopeOf(adminWithdrawSettingsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.getSettings()),
  );
  app.put(
    '/api/admin/withdraw/settings',
    {
      ...settingsWriter,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Set the withdrawal settings (audited)',
        body: updateWithdrawSettingsRequest,
        response: { 200: envelopeOf(adminWithdrawSettingsResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.updateSettings(sessionOf(request).operator.id, request.body, originOf(request))),
  );
  app.get(
    '/api/admin/withdraw/holidays',
    {
      ...reader,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Holidays without withdrawals (from a month back)',
        response: { 200: envelopeOf(holidaysResponse) },
      },
    },
    async (request) => ok(request.locale, await service.holidays()),
  );
  app.post(
    '/api/admin/withdraw/holidays',
    {
      ...settingsWriter,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Add a holiday (audited)',
        body: addHolidayRequest,
        response: { 200: envelopeOf(holidaysResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.addHoliday(sessionOf(request).operator.id, request.body, originOf(request))),
  );
  app.delete(
    '/api/admin/withdraw/holidays/:date',
    {
      ...settingsWriter,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Remove a holiday (audited)',
        params: holidayDateParams,
        response: { 200: envelopeOf(holidaysResponse) },
      },
    },
    async (request) =>
      ok(request.locale, await service.deleteHoliday(sessionOf(request).operator.id, request.params.date, originOf(request))),
  );
  app.get(
    '/api/admin/chain/hot_wallet',
    {
      ...reader,
      schema: {
        tags: consoleTags,
        security: operatorSecurity,
        summary: 'Hot wallet address and balances per network',
        response: { 200: envelopeOf(hotWalletsResponse) },
      },
    },
    async (request) => ok(request.locale, await service.hotWallets()),
  );
};
