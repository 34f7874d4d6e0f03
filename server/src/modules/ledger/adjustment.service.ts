import { money, type Adjustment, type Asset } from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { AdjustmentRepository, AdjustmentRow } from './adjustment.repository.js';
import type { LedgerService } from './ledger.service.js';

function toAdjustment(row: AdjustmentRow): Adjustment {
  return {
    id: row.id,
    accountId: row.account_id,
    memberEmail: row.member_email,
    accountNickname: row.account_nickname,
    asset: row.asset,
    direction: row.direction,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    proposedBy: row.proposed_by,
    proposedAt: new Date(row.proposed_at).toISOString(),
    decidedBy: row.decided_by,
    decidedAt: row.decided_at ? new Date(row.decided_at).toISOString() : null,
    decisionNote: row.decision_note,
    entryId: row.entry_id,
  };
}

/**
 * Manual credits and debits to a member account's available balance, against the platform's
 * adjustments account. Four eyes: the operator who proposes cannot approve (the database refuses it too).
 */
export class AdjustmentService {
  constructor(
    private readonly db: Db,
    private readonly adjustments: AdjustmentRepository,
    private readonly ledger: LedgerService,
    private readonly audit: AuditRepository,
    private readonly accountExists: (accountId: string) => Promise<boolean>,
  ) {}

  async propose(
    operatorId: string,
    input: { accountId: string; asset: Asset; direction: 'credit' | 'debit'; amount: string; reason: string },
    origin: RequestOrigin,
  ): Promise<Adjustment> {
    if (!(await this.accountExists(input.accountId))) throw AppError.notFound();
    const amount = money.formatMoney(money.parseMoney(input.amount));
    const id = await this.db.transaction(async (tx) => {
      const created = await this.adjustments.insert(tx, { ...input, amount, proposedBy: operatorId });
      await this.audit.record(
        {
          operatorId,
          action: 'ledger.adjustment_proposed',
          targetType: 'ledger_adjustment',
          targetId: created,
          after: { ...input, amount, status: 'proposed' },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return created;
    });
    return this.get(id);
  }

  async approve(operatorId: string, id: string, note: string | undefined, origin: RequestOrigin): Promise<Adjustment> {
    await this.db.transaction(async (tx) => {
      const row = await this.lockProposed(tx, id, operatorId);
      const amount = money.parseMoney(row.amount);
      const signed = row.direction === 'credit' ? amount : money.negate(amount);
      const posted = await this.ledger.post(tx, {
        idempotencyKey: `adjustment:${row.id}`,
        kind: 'adjustment',
        referenceType: 'ledger_adjustment',
        referenceId: row.id,
        memo: row.reason,
        operatorId,
        postings: [
          {
            account: { ownerAccountId: row.account_id, asset: row.asset, purpose: 'available' },
            amount: signed,
            recordType: row.direction === 'credit' ? 'adjustment_credit' : 'adjustment_debit',
          },
          {
            account: { platformCode: 'adjustments', asset: row.asset },
            amount: money.negate(signed),
            recordType: row.direction === 'credit' ? 'adjustment_credit' : 'adjustment_debit',
          },
        ],
      });
      await this.adjustments.decide(tx, row.id, {
        status: 'approved',
        decidedBy: operatorId,
        note: note ?? null,
        entryId: posted.entryId,
      });
      await this.audit.record(
        {
          operatorId,
          action: 'ledger.adjustment_approved',
          targetType: 'ledger_adjustment',
          targetId: row.id,
          before: { status: 'proposed' },
          after: { status: 'approved', entryId: posted.entryId, note: note ?? null },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return this.get(id);
  }

  async reject(operatorId: string, id: string, note: string | undefined, origin: RequestOrigin): Promise<Adjustment> {
    await this.db.transaction(async (tx) => {
      const row = await this.lockProposed(tx, id, operatorId);
      await this.adjustments.decide(tx, row.id, { status: 'rejected', decidedBy: operatorId, note: note ?? null, entryId: null });
      await this.audit.record(
        {
          operatorId,
          action: 'ledger.adjustment_rejected',
          targetType: 'ledger_adjustment',
          targetId: row.id,
          before: { status: 'proposed' },
          after: { status: 'rejected', note: note ?? null },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return this.get(id);
  }

  async list(status: string | undefined, page: number, pageSize: number) {
    const { rows, total } = await this.adjustments.list({ status }, pageSize, (page - 1) * pageSize);
    return { items: rows.map(toAdjustment), total, page, pageSize };
  }

  private async get(id: string): Promise<Adjustment> {
    const row = await this.adjustments.find(this.db, id);
    if (!row) throw AppError.notFound();
    return toAdjustment(row);
  }

  private async lockProposed(tx: Parameters<Parameters<Db['transaction']>[0]>[0], id: string, operatorId: string) {
    const row = await this.adjustments.find(tx, id, { lock: true });
    if (!row) throw AppError.notFound();
    if (row.status !== 'proposed') throw AppError.conflict('adjustment.not_proposed');
    if (row.proposed_by_id === operatorId) throw AppError.forbidden('adjustment.own_proposal');
    return row;
  }
}
