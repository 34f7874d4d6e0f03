import {
  contractMid,
  type ContractManualQuoteSettings,
  type ContractQuoteProposal,
  type ContractQuoteProposalWhy,
  type ManualContractQuoteResult,
} from '@custos/contract';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ManualQuotesRepository, ProposalRow } from './manual-quotes.repository.js';
import type { OperatorActor } from './model.js';
import type { ContractsWatcherService } from './watcher.service.js';
import { quoteDeviationBps } from './manual-quote-rules.js';

const iso = (value: Date | string) => new Date(value).toISOString();
/** `50000.50000000` → `50000.5`: a mid has no digits of its own. */
const trimZeros = (value: string) => (value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value);
/** A proposed raw price as entered (the platform's rounding applies to the tick): at least the product's digits. */
function rawPrice(value: string, digits: number): string {
  const [whole = '0', fraction = ''] = trimZeros(value).split('.');
  const places = fraction.padEnd(digits, '0');
  return places ? `${whole}.${places}` : whole;
}

/**
 * Manual quotes on contract products (decision 050). One operator's bid/ask applies at once only
 * near an independent price: within `bandBps` of the mid of the product's last feed, replay or
 * second-operator-approved tick, that tick no older than `referenceMaxAgeS`, and while no feed is
 * live. Anything else becomes a proposal another operator approves (or rejects) before it expires;
 * the proposer can do neither. Every tick is stored with its operators and audited.
 */
export class ManualQuotesService {
  constructor(
    private readonly db: Db,
    private readonly repository: ManualQuotesRepository,
    /** Stores and walks the manual ticks (the contracts watcher, or the module's `ContractsService`). */
    private readonly contracts: Pick<ContractsWatcherService, 'manualQuote' | 'walkManualTick'>,
    private readonly settings: SettingsService,
    private readonly audit: AuditRepository,
    private readonly clock: Clock,
  ) {}

  private view(row: ProposalRow): ContractQuoteProposal {
    const expired = row.status === 'pending' && new Date(row.expires_at).getTime() <= this.clock.now().getTime();
    return {
      id: row.id,
      productId: row.product_id,
      symbol: row.symbol,
      bid: rawPrice(row.bid, row.digits),
      ask: rawPrice(row.ask, row.digits),
      why: row.why,
      referenceMid: row.reference_mid === null ? null : trimZeros(row.reference_mid),
      deviationBps: row.deviation_bps,
      status: expired ? 'expired' : row.status,
      proposedBy: row.proposed_by,
      proposedAt: iso(row.proposed_at),
      expiresAt: iso(row.expires_at),
      decidedBy: row.decided_by,
      decidedAt: row.decided_at === null ? null : iso(row.decided_at),
      decisionNote: row.decision_note,
      tickId: row.tick_id,
    };
  }

  /**
   * Why a quote needs a second operator (null: it may apply now), and what it was measured against.
   */
  private async assess(
    db: Db | Tx,
    productId: string,
    quote: { bid: string; ask: string },
  ): Promise<{
    why: ContractQuoteProposalWhy | null;
    referenceMid: string | null;
    referenceTickId: string | null;
    deviationBps: number | null;
  }> {
    const [band, contracts] = await Promise.all([this.settings.get('contracts_manual_quotes'), this.settings.get('contracts')]);
    const { reference, lastFeedAt } = await this.repository.reference(db, productId);
    const nowMs = this.clock.now().getTime();
    const measured = reference
      ? {
          referenceMid: trimZeros(contractMid(reference.bid, reference.ask, 8)),
          referenceTickId: reference.tick_id,
          deviationBps: quoteDeviationBps(quote, reference),
        }
      : { referenceMid: null, referenceTickId: null, deviationBps: null };
    // While a feed prices the product, a lone operator's tick between its ticks could only fire
    // members' stops the market never reached; the feed's next tick replaces it anyway.
    if (lastFeedAt && nowMs - lastFeedAt.getTime() <= contracts.priceStaleAfterS * 1000) return { why: 'feed_live', ...measured };
    if (!reference || nowMs - new Date(reference.observed_at).getTime() > band.referenceMaxAgeS * 1000) {
      return { why: 'no_reference', ...measured };
    }
    if (measured.deviationBps! > band.bandBps) return { why: 'out_of_band', ...measured };
    return { why: null, ...measured };
  }

  private async symbolOf(productId: string): Promise<string> {
    const symbol = await this.repository.contractSymbol(this.db, productId);
    if (symbol === null) throw AppError.conflict('contracts.not_contract_product');
    return symbol;
  }

  /** POST /api/admin/contracts/products/:id/quote: applies a quote in band, else proposes it. */
  async submit(actor: OperatorActor, productId: string, quote: { bid: string; ask: string }): Promise<ManualContractQuoteResult> {
    const symbol = await this.symbolOf(productId);
    const assessment = await this.assess(this.db, productId, quote);
    const measured = {
      referenceMid: assessment.referenceMid,
      referenceTickId: assessment.referenceTickId,
      deviationBps: assessment.deviationBps,
    };
    if (assessment.why === null) {
      const tickId = await this.db.transaction(async (tx) => {
        const tick = await this.contracts.manualQuote(tx, productId, quote);
        if (!tick) throw AppError.conflict('contracts.not_contract_product');
        await this.repository.recordManualTick(tx, {
          tickId: tick.id,
          productId,
          enteredBy: actor.operatorId,
          approvedBy: null,
          proposalId: null,
        });
        await this.audit.record(
          {
            operatorId: actor.operatorId,
            action: 'contracts.quote_set',
            targetType: 'market_product',
            targetId: productId,
            after: { symbol, bid: quote.bid, ask: quote.ask, tickId: tick.id, ...measured },
            ip: actor.origin.ip,
            requestId: actor.origin.requestId,
          },
          tx,
        );
        return tick.id;
      });
      this.contracts.walkManualTick(productId);
      return { id: productId, outcome: 'applied', tickId, proposal: null };
    }
    const why = assessment.why;
    const ttl = (await this.settings.get('contracts_manual_quotes')).proposalTtlS;
    const proposedAt = this.clock.now();
    const proposalId = await this.db.transaction(async (tx) => {
      const id = await this.repository.insertProposal(tx, {
        productId,
        bid: quote.bid,
        ask: quote.ask,
        why,
        ...measured,
        proposedBy: actor.operatorId,
        proposedAt,
        expiresAt: new Date(proposedAt.getTime() + ttl * 1000),
      });
      await this.audit.record(
        {
          operatorId: actor.operatorId,
          action: 'contracts.quote_proposed',
          targetType: 'contract_quote_proposal',
          targetId: id,
          after: { productId, symbol, bid: quote.bid, ask: quote.ask, why, ...measured, status: 'pending' },
          ip: actor.origin.ip,
          requestId: actor.origin.requestId,
        },
        tx,
      );
      return id;
    });
    return { id: productId, outcome: 'proposed', tickId: null, proposal: await this.get(proposalId) };
  }

  /** Locks a proposal another operator may still decide. */
  private async lockPending(tx: Tx, id: string, operatorId: string): Promise<ProposalRow> {
    const row = await this.repository.proposal(tx, id, { lock: true });
    if (!row) throw AppError.notFound();
    if (row.status !== 'pending') throw AppError.conflict('contracts.quote_proposal_not_pending');
    if (row.proposed_by_id === operatorId) throw AppError.forbidden('contracts.quote_own_proposal');
    if (new Date(row.expires_at).getTime() <= this.clock.now().getTime()) {
      throw AppError.conflict('contracts.quote_proposal_expired');
    }
    return row;
  }

  /** POST /api/admin/contracts/quote-proposals/:id/approve: a second operator applies the quote as proposed. */
  async approve(actor: OperatorActor, id: string, note: string | undefined): Promise<ContractQuoteProposal> {
    const productId = await this.db.transaction(async (tx) => {
      const row = await this.lockPending(tx, id, actor.operatorId);
      const tick = await this.contracts.manualQuote(tx, row.product_id, { bid: row.bid, ask: row.ask });
      if (!tick) throw AppError.conflict('contracts.not_contract_product');
      await this.repository.recordManualTick(tx, {
        tickId: tick.id,
        productId: row.product_id,
        enteredBy: row.proposed_by_id,
        approvedBy: actor.operatorId,
        proposalId: row.id,
      });
      await this.repository.decide(tx, row.id, {
        status: 'approved',
        decidedBy: actor.operatorId,
        decidedAt: this.clock.now(),
        note: note ?? null,
        tickId: tick.id,
      });
      await this.audit.record(
        {
          operatorId: actor.operatorId,
          action: 'contracts.quote_approved',
          targetType: 'contract_quote_proposal',
          targetId: row.id,
          before: { status: 'pending' },
          after: {
            status: 'approved',
            productId: row.product_id,
            symbol: row.symbol,
            bid: row.bid,
            ask: row.ask,
            tickId: tick.id,
            proposedBy: row.proposed_by_id,
            approvedBy: actor.operatorId,
            note: note ?? null,
          },
          ip: actor.origin.ip,
          requestId: actor.origin.requestId,
        },
        tx,
      );
      return row.product_id;
    });
    this.contracts.walkManualTick(productId);
    return this.get(id);
  }

  /** POST /api/admin/contracts/quote-proposals/:id/reject */
  async reject(actor: OperatorActor, id: string, note: string | undefined): Promise<ContractQuoteProposal> {
    await this.db.transaction(async (tx) => {
      const row = await this.lockPending(tx, id, actor.operatorId);
      await this.repository.decide(tx, row.id, {
        status: 'rejected',
        decidedBy: actor.operatorId,
        decidedAt: this.clock.now(),
        note: note ?? null,
        tickId: null,
      });
      await this.audit.record(
        {
          operatorId: actor.operatorId,
          action: 'contracts.quote_rejected',
          targetType: 'contract_quote_proposal',
          targetId: row.id,
          before: { status: 'pending' },
          after: { status: 'rejected', proposedBy: row.proposed_by_id, rejectedBy: actor.operatorId, note: note ?? null },
          ip: actor.origin.ip,
          requestId: actor.origin.requestId,
        },
        tx,
      );
    });
    return this.get(id);
  }

  /** GET /api/admin/contracts/quote-proposals */
  async list(status: string | undefined): Promise<{ items: ContractQuoteProposal[] }> {
    const rows = await this.repository.proposals(this.db, status, this.clock.now());
    return { items: rows.map((row) => this.view(row)) };
  }

  private async get(id: string): Promise<ContractQuoteProposal> {
    const row = await this.repository.proposal(this.db, id);
    if (!row) throw AppError.notFound();
    return this.view(row);
  }

  /** GET /api/admin/contracts/manual-quotes/settings */
  getSettings(): Promise<ContractManualQuoteSettings> {
    return this.settings.get('contracts_manual_quotes');
  }

  /** PUT /api/admin/contracts/manual-quotes/settings (audited). */
  async updateSettings(actor: OperatorActor, next: ContractManualQuoteSettings): Promise<ContractManualQuoteSettings> {
    const before = await this.settings.get('contracts_manual_quotes');
    await this.db.transaction(async (tx) => {
      await this.settings.set('contracts_manual_quotes', next, actor.operatorId, tx);
      await this.audit.record(
        {
          operatorId: actor.operatorId,
          action: 'contracts.manual_quote_settings_updated',
          targetType: 'platform_setting',
          targetId: 'contracts_manual_quotes',
          before,
          after: next,
          ip: actor.origin.ip,
          requestId: actor.origin.requestId,
        },
        tx,
      );
    });
    return this.getSettings();
  }
}
