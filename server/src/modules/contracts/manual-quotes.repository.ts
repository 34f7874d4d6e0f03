import { sql } from 'drizzle-orm';
import type { ContractQuoteProposalWhy } from '@custos/contract';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';

/** A quote proposal as stored, with the operators' names. */
export interface ProposalRow {
  id: string;
  product_id: string;
  symbol: string;
  /** The product's price places (prices are shown to them). */
  digits: number;
  bid: string;
  ask: string;
  why: ContractQuoteProposalWhy;
  reference_mid: string | null;
  deviation_bps: number | null;
  status: 'pending' | 'approved' | 'rejected';
  proposed_by_id: string;
  proposed_by: string;
  proposed_at: Date | string;
  expires_at: Date | string;
  decided_by: string | null;
  decided_at: Date | string | null;
  decision_note: string | null;
  tick_id: string | null;
}

/** The operators behind a manual tick: who entered it and, for a proposal, who approved it. */
export interface ManualTickRow {
  tick_id: string;
  entered_by: string;
  approved_by: string | null;
  proposal_id: string | null;
}

/** A product's last independent price (feed, replay, or a manual tick a second operator approved). */
export interface ReferenceRow {
  tick_id: string;
  bid: string;
  ask: string;
  source: string;
  observed_at: Date | string;
}

/** One audit row of a watcher's close on a manual tick. */
export interface ManualCloseAudit {
  operatorId: string;
  orderId: string;
  after: Record<string, unknown>;
}

const PROPOSAL_COLUMNS = sql`p.id::text as id, p.product_id::text as product_id, mp.symbol, coalesce(cp.digits, 8) as digits, p.bid::text as bid,
  p.ask::text as ask, p.why, p.reference_mid::text as reference_mid, p.deviation_bps, p.status,
  p.proposed_by::text as proposed_by_id, po.username as proposed_by, p.proposed_at, p.expires_at,
  d.username as decided_by, p.decided_at, p.decision_note, p.tick_id::text as tick_id`;
const PROPOSAL_FROM = sql`from contract_quote_proposals p
  join market_products mp on mp.id = p.product_id
  left join contract_products cp on cp.product_id = p.product_id
  join operators po on po.id = p.proposed_by
  left join operators d on d.id = p.decided_by`;

/**
 * Manual quotes' SQL (decision 050): proposals, the operators of manual ticks, the reference price.
 * Every method takes its handle: inside a walk or an approval it is that transaction (decision 034).
 */
export class ManualQuotesRepository {
  /** A product's symbol when it has contract settings (RAB/USDT never has), else null. */
  async contractSymbol(db: Db | Tx, productId: string): Promise<string | null> {
    const [row] = await queryRows<{ symbol: string }>(
      db,
      sql`select mp.symbol from market_products mp join contract_products cp on cp.product_id = mp.id
          where mp.id = ${productId}::uuid`,
    );
    return row?.symbol ?? null;
  }

  /**
   * The product's last tick not entered by one operator alone, and its last feed or replay tick's
   * time (the feed is live while that is fresh).
   */
  async reference(db: Db | Tx, productId: string): Promise<{ reference: ReferenceRow | null; lastFeedAt: Date | null }> {
    const [reference] = await queryRows<ReferenceRow>(
      db,
      sql`select t.id::text as tick_id, t.bid::text as bid, t.ask::text as ask, t.source, t.observed_at
          from contract_ticks t
          where t.product_id = ${productId}::uuid and (t.source <> 'manual' or exists (
            select 1 from contract_manual_ticks m where m.tick_id = t.id and m.approved_by is not null))
          order by t.id desc limit 1`,
    );
    const [feed] = await queryRows<{ observed_at: Date | string }>(
      db,
      sql`select observed_at from contract_ticks where product_id = ${productId}::uuid and source <> 'manual'
          order by id desc limit 1`,
    );
    return { reference: reference ?? null, lastFeedAt: feed ? new Date(feed.observed_at) : null };
  }

  async recordManualTick(
    tx: Tx,
    tick: { tickId: string; productId: string; enteredBy: string; approvedBy: string | null; proposalId: string | null },
  ): Promise<void> {
    await runStatement(
      tx,
      sql`insert into contract_manual_ticks (tick_id, product_id, entered_by, approved_by, proposal_id)
          values (${tick.tickId}::bigint, ${tick.productId}::uuid, ${tick.enteredBy}::uuid, ${tick.approvedBy}::uuid,
            ${tick.proposalId}::uuid)`,
    );
  }

  /** The manual ticks among these, by tick id (the watcher's closes on them fill at the target, audited). */
  async manualTicks(db: Db | Tx, tickIds: readonly string[]): Promise<Map<string, ManualTickRow>> {
    if (tickIds.length === 0) return new Map();
    const ids = sql`${`{${[...new Set(tickIds)].join(',')}}`}::bigint[]`;
    const rows = await queryRows<ManualTickRow>(
      db,
      sql`select tick_id::text as tick_id, entered_by::text as entered_by, approved_by::text as approved_by,
            proposal_id::text as proposal_id
          from contract_manual_ticks where tick_id = any(${ids})`,
    );
    return new Map(rows.map((row) => [row.tick_id, row]));
  }

  /** One audit row per close, in one statement (a manual tick may close many orders). */
  async auditCloses(tx: Tx, rows: readonly ManualCloseAudit[]): Promise<void> {
    if (rows.length === 0) return;
    const values = rows.map(
      (row) =>
        sql`(${row.operatorId}::uuid, 'contracts.manual_tick_close', 'contract_order', ${row.orderId}, ${JSON.stringify(row.after)}::jsonb)`,
    );
    await runStatement(
      tx,
      sql`insert into audit_log (operator_id, action, target_type, target_id, after) values ${sql.join(values, sql`, `)}`,
    );
  }

  async insertProposal(
    tx: Tx,
    proposal: {
      productId: string;
      bid: string;
      ask: string;
      why: ContractQuoteProposalWhy;
      referenceMid: string | null;
      referenceTickId: string | null;
      deviationBps: number | null;
      proposedBy: string;
      proposedAt: Date;
      expiresAt: Date;
    },
  ): Promise<string> {
    const [row] = await queryRows<{ id: string }>(
      tx,
      sql`insert into contract_quote_proposals (product_id, bid, ask, why, reference_mid, reference_tick_id, deviation_bps,
            proposed_by, proposed_at, expires_at)
          values (${proposal.productId}::uuid, ${proposal.bid}, ${proposal.ask}, ${proposal.why}, ${proposal.referenceMid},
            ${proposal.referenceTickId}::bigint, ${proposal.deviationBps}, ${proposal.proposedBy}::uuid,
            ${proposal.proposedAt}, ${proposal.expiresAt})
          returning id::text as id`,
    );
    return row!.id;
  }

  async proposal(db: Db | Tx, id: string, options: { lock?: boolean } = {}): Promise<ProposalRow | undefined> {
    const [row] = await queryRows<ProposalRow>(
      db,
      sql`select ${PROPOSAL_COLUMNS} ${PROPOSAL_FROM} where p.id = ${id}::uuid ${options.lock ? sql`for update of p` : sql``}`,
    );
    return row;
  }

  /**
   * Proposals newest first (at most 200). `pending` are those still open to a decision, `expired`
   * those left undecided past their time; the stored status stays `pending` for both.
   */
  async proposals(db: Db | Tx, status: string | undefined, now: Date): Promise<ProposalRow[]> {
    const where =
      status === 'pending'
        ? sql`p.status = 'pending' and p.expires_at > ${now}`
        : status === 'expired'
          ? sql`p.status = 'pending' and p.expires_at <= ${now}`
          : status
            ? sql`p.status = ${status}`
            : sql`true`;
    return queryRows<ProposalRow>(
      db,
      sql`select ${PROPOSAL_COLUMNS} ${PROPOSAL_FROM} where ${where} order by p.proposed_at desc, p.id desc limit 200`,
    );
  }

  async decide(
    tx: Tx,
    id: string,
    decision: { status: 'approved' | 'rejected'; decidedBy: string; decidedAt: Date; note: string | null; tickId: string | null },
  ): Promise<void> {
    await runStatement(
      tx,
      sql`update contract_quote_proposals set status = ${decision.status}, decided_by = ${decision.decidedBy}::uuid,
            decided_at = ${decision.decidedAt}, decision_note = ${decision.note}, tick_id = ${decision.tickId}::bigint
          where id = ${id}::uuid and status = 'pending'`,
    );
  }
}
