import { randomUUID } from 'node:crypto';
import { type z } from 'zod';
import { money, type transferRequest, type Transfer } from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { fingerprint } from '../../lib/fingerprint.js';
import type { AccountRepository } from '../accounts/account.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { SecurityService } from '../security/security.service.js';
import type { TransferRepository, TransferRow } from './transfer.repository.js';

export type TransferRequest = z.infer<typeof transferRequest>;

function toTransfer(row: TransferRow, viewerAccountId: string): Transfer {
  return {
    id: row.id,
    direction: row.from_account_id === viewerAccountId ? 'out' : 'in',
    fromAccountId: row.from_account_id,
    fromNickname: row.from_nickname,
    toAccountId: row.to_account_id,
    toNickname: row.to_nickname,
    asset: row.asset,
    amount: row.amount,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** Moves USDT or RAB between a member's own accounts (main and sub-accounts), one ledger entry each. */
export class TransferService {
  constructor(
    private readonly db: Db,
    private readonly transfers: TransferRepository,
    private readonly accounts: AccountRepository,
    private readonly ledger: LedgerService,
    private readonly security: SecurityService,
  ) {}

  async transfer(context: MemberSessionContext, request: TransferRequest): Promise<Transfer> {
    const fromAccountId = context.account.id;
    const requestHash = fingerprint({ toAccountId: request.toAccountId, asset: request.asset, amount: request.amount });
    const replay = (row: TransferRow) => {
      if (row.request_hash !== requestHash) throw AppError.conflict('ledger.idempotency_mismatch');
      return toTransfer(row, fromAccountId);
    };
    await this.security.verifyTradePassword(context.member, request.tradePassword, context.sessionId);
    // A retry is found by its ledger key inside the transaction below: no lookup on the common path.

    if (request.toAccountId === fromAccountId) throw AppError.badRequest('transfer.same_account');
    // Another member's account id is simply not found: nothing tells the caller it exists.
    const target = await this.accounts.findForMember(context.member.id, request.toAccountId);
    if (!target) throw AppError.notFound();

    const amount = money.parseMoney(request.amount);
    const transferId = randomUUID();
    return this.db.transaction(async (tx) => {
      const posted = await this.ledger.post(tx, {
        idempotencyKey: `transfer:${fromAccountId}:${request.idempotencyKey}`,
        kind: 'transfer',
        referenceType: 'account_transfer',
        referenceId: transferId,
        postings: [
          {
            account: { ownerAccountId: fromAccountId, asset: request.asset, purpose: 'available' },
            amount: money.negate(amount),
            recordType: 'transfer_out',
          },
          {
            account: { ownerAccountId: target.id, asset: request.asset, purpose: 'available' },
            amount,
            recordType: 'transfer_in',
          },
        ],
      });
      if (posted.duplicate) {
        const winner = await this.transfers.findByClientKey(tx, fromAccountId, request.idempotencyKey);
        if (!winner) throw new Error(`transfer entry ${posted.entryId} has no transfer row`);
        return replay(winner);
      }
      const createdAt = await this.transfers.insert(tx, {
        id: transferId,
        memberId: context.member.id,
        fromAccountId,
        toAccountId: target.id,
        clientKey: request.idempotencyKey,
        requestHash,
        asset: request.asset,
        amount: money.formatMoney(amount),
        entryId: posted.entryId,
      });
      return toTransfer(
        {
          id: transferId,
          request_hash: requestHash,
          from_account_id: fromAccountId,
          from_nickname: context.account.nickname,
          to_account_id: target.id,
          to_nickname: target.nickname,
          asset: request.asset,
          amount: money.formatMoney(amount),
          created_at: createdAt,
        },
        fromAccountId,
      );
    });
  }

  async list(context: MemberSessionContext, page: number, pageSize: number) {
    const { rows, total } = await this.transfers.list(context.account.id, pageSize, (page - 1) * pageSize);
    return { items: rows.map((row) => toTransfer(row, context.account.id)), total, page, pageSize };
  }
}
