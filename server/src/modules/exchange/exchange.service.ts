import { randomUUID } from 'node:crypto';
import { type z } from 'zod';
import {
  type exchangeRequest,
  money,
  quoteExchange,
  type ExchangeQuote,
  type ExchangeIndex,
  type ExchangeOrder,
  type ExchangeSettings,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { fingerprint, normaliseDecimal } from '../../lib/fingerprint.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { LedgerAccountRef, LedgerService, PostingSpec } from '../ledger/ledger.service.js';
import type { SecurityService } from '../security/security.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ExchangeOrderRow, ExchangeRepository } from './exchange.repository.js';

export type ExchangeRequest = z.infer<typeof exchangeRequest>;

function toOrder(row: ExchangeOrderRow): ExchangeOrder {
  return {
    id: row.id,
    direction: row.direction,
    fromAsset: row.from_asset,
    toAsset: row.to_asset,
    fromAmount: row.from_amount,
    toAmount: row.to_amount,
    price: normaliseDecimal(row.price),
    fee: row.fee,
    feeFuel: row.fee_fuel,
    feeUsdt: row.fee_usdt,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** The entry of an exchange: the member's two legs, the treasury's other side, and the fee. */
function exchangePostings(
  direction: ExchangeRequest['direction'],
  quote: ExchangeQuote,
  member: (asset: 'USDT' | 'RAB' | 'FUEL') => LedgerAccountRef,
): PostingSpec[] {
  const postings: PostingSpec[] = [
    {
      account: member(quote.fromAsset as 'USDT' | 'RAB'),
      amount: money.negate(quote.fromAmount),
      recordType: 'exchange_out',
    },
    { account: member(quote.toAsset as 'USDT' | 'RAB'), amount: quote.toAmount, recordType: 'exchange_in' },
  ];
  // The treasury takes the asset given and pays the asset received; USDT fees go to the fee account.
  if (direction === 'rab_to_usdt') {
    postings.push(
      { account: { platformCode: 'treasury', asset: 'RAB' }, amount: quote.fromAmount, recordType: 'exchange_in' },
      {
        account: { platformCode: 'treasury', asset: 'USDT' },
        amount: money.negate(money.add(quote.toAmount, quote.feeUsdt)),
        recordType: 'exchange_out',
      },
    );
  } else {
    postings.push(
      {
        account: { platformCode: 'treasury', asset: 'USDT' },
        amount: money.subtract(quote.fromAmount, quote.feeUsdt),
        recordType: 'exchange_in',
      },
      {
        account: { platformCode: 'treasury', asset: 'RAB' },
        amount: money.negate(quote.toAmount),
        recordType: 'exchange_out',
      },
    );
  }
  if (quote.feeUsdt > 0n) {
    postings.push({ account: { platformCode: 'fees', asset: 'USDT' }, amount: quote.feeUsdt, recordType: 'exchange_fee' });
  }
  if (quote.feeFuel > 0n) {
    postings.push(
      { account: member('FUEL'), amount: money.negate(quote.feeFuel), recordType: 'exchange_fee' },
      { account: { platformCode: 'fees', asset: 'FUEL' }, amount: quote.feeFuel, recordType: 'exchange_fee' },
    );
  }
  return postings;
}

/** RAB ⇄ USDT at the operator's price: both legs and the fee post as one ledger entry. */
export class ExchangeService {
  constructor(
    private readonly db: Db,
    private readonly orders: ExchangeRepository,
    private readonly ledger: LedgerService,
    private readonly security: SecurityService,
    private readonly settings: SettingsService,
    private readonly audit: AuditRepository,
  ) {}

  async index(context: MemberSessionContext): Promise<ExchangeIndex> {
    const settings = await this.settings.get('exchange');
    const balances = await this.ledger.balancesOf([context.account.id]);
    const available = (asset: string) =>
      money.formatMoney(balances.get(`${context.account.id}:${asset}:available`) ?? money.ZERO);
    return { ...settings, available: { USDT: available('USDT'), RAB: available('RAB'), FUEL: available('FUEL') } };
  }

  async list(context: MemberSessionContext, page: number, pageSize: number) {
    const { rows, total } = await this.orders.list(context.account.id, pageSize, (page - 1) * pageSize);
    return { items: rows.map(toOrder), total, page, pageSize };
  }

  async exchange(context: MemberSessionContext, request: ExchangeRequest): Promise<ExchangeOrder> {
    const accountId = context.account.id;
    const requestHash = fingerprint({
      direction: request.direction,
      amount: request.amount,
      quotedPrice: normaliseDecimal(request.quotedPrice),
    });
    const replay = (row: ExchangeOrderRow) => {
      if (row.request_hash !== requestHash) throw AppError.conflict('ledger.idempotency_mismatch');
      return toOrder(row);
    };
    await this.security.verifyTradePassword(context.member, request.tradePassword, context.sessionId);
    const settings = await this.settings.get('exchange');
    const amount = money.parseMoney(request.amount);
    const orderId = randomUUID();
    const member = (asset: 'USDT' | 'RAB' | 'FUEL'): LedgerAccountRef => ({
      ownerAccountId: accountId,
      asset,
      purpose: 'available',
    });
    let quote: ExchangeQuote | undefined;

    return this.db.transaction(async (tx) => {
      // The ledger claims the key and locks the accounts in one round trip; a retry is answered from
      // its first result (even if the price has changed since), so the checks below run only for new requests.
      const posted = await this.ledger.postWithBalances(
        tx,
        {
          idempotencyKey: `exchange:${accountId}:${request.idempotencyKey}`,
          kind: 'exchange',
          referenceType: 'exchange_order',
          referenceId: orderId,
        },
        [
          member('USDT'),
          member('RAB'),
          member('FUEL'),
          { platformCode: 'treasury', asset: 'USDT' },
          { platformCode: 'treasury', asset: 'RAB' },
          { platformCode: 'fees', asset: 'USDT' },
          { platformCode: 'fees', asset: 'FUEL' },
        ],
        (balanceOf) => {
          if (!settings.enabled) throw AppError.conflict('exchange.disabled');
          if (normaliseDecimal(request.quotedPrice) !== normaliseDecimal(settings.rabPriceUsdt)) {
            throw AppError.conflict('exchange.quote_stale', { price: normaliseDecimal(settings.rabPriceUsdt) });
          }
          const quoted = quoteExchange(request.direction, amount, settings, balanceOf(member('FUEL')));
          if ('problem' in quoted) throw problemError(quoted.problem, request.direction, settings);
          quote = quoted.quote;
          return exchangePostings(request.direction, quote, member).filter((posting) => posting.amount !== 0n);
        },
      );
      if (posted.duplicate || !quote) {
        const winner = await this.orders.findByClientKey(tx, accountId, request.idempotencyKey);
        if (!winner) throw new Error(`exchange entry ${posted.entryId} has no order`);
        return replay(winner);
      }
      const row = await this.orders.insert(tx, {
        id: orderId,
        accountId,
        clientKey: request.idempotencyKey,
        requestHash,
        direction: request.direction,
        fromAsset: quote.fromAsset,
        toAsset: quote.toAsset,
        fromAmount: money.formatMoney(quote.fromAmount),
        toAmount: money.formatMoney(quote.toAmount),
        price: settings.rabPriceUsdt,
        fee: money.formatMoney(quote.fee),
        feeFuel: money.formatMoney(quote.feeFuel),
        feeUsdt: money.formatMoney(quote.feeUsdt),
        entryId: posted.entryId,
      });
      return toOrder(row);
    });
  }

  getSettings(): Promise<ExchangeSettings> {
    return this.settings.get('exchange');
  }

  async updateSettings(operatorId: string, next: ExchangeSettings, origin: RequestOrigin): Promise<ExchangeSettings> {
    const before = await this.settings.get('exchange');
    await this.db.transaction(async (tx) => {
      await this.settings.set('exchange', next, operatorId, tx);
      await this.audit.record(
        {
          operatorId,
          action: 'exchange.settings_updated',
          targetType: 'setting',
          targetId: 'exchange',
          before,
          after: next,
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return this.settings.get('exchange');
  }
}

function problemError(problem: 'below_minimum' | 'nothing_received', direction: string, settings: ExchangeSettings): AppError {
  if (problem === 'nothing_received') return AppError.badRequest('exchange.nothing_received');
  return direction === 'rab_to_usdt'
    ? AppError.badRequest('exchange.below_minimum', { minimum: settings.minRab, asset: 'RAB' })
    : AppError.badRequest('exchange.below_minimum', { minimum: settings.minUsdt, asset: 'USDT' });
}
