import { randomInt, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  BusinessCode,
  money,
  otcFee,
  otcFiatAmount,
  otcPriceBand,
  type AdminOtcAppealItem,
  type AdminOtcListing,
  type AdminOtcOrder,
  type AdminOtcOrderDetail,
  type AdminOtcParty,
  type Money,
  type OtcActor,
  type OtcAppeal,
  type OtcChatHistory,
  type OtcChatMessage,
  type OtcInfo,
  type OtcListingDetail,
  type OtcListingState,
  type OtcMarketListing,
  type OtcMyListing,
  type OtcOrder,
  type OtcOrderDetail,
  type OtcOrderState,
  type OtcOrderStep,
  type OtcPaymentDetail,
  type OtcReputation,
  type OtcRole,
  type OtcSettings,
  type OtcSide,
  type adminOtcChatSendRequest,
  type adminOtcRuleRequest,
  type otcAppealRequest,
  type otcBuyRequest,
  type otcChatSendRequest,
  type otcPostListingRequest,
  type otcReleaseRequest,
  type otcSellRequest,
} from '@custos/contract';
import type { Db, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { fingerprint } from '../../lib/fingerprint.js';
import { addDays, instantOf, localTime } from '../../lib/platform-time.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { Clock } from '../../lib/clock.js';
import type { LedgerAccountRef, LedgerService } from '../ledger/ledger.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { OperatorEventsService } from '../notifications/operator-events.service.js';
import type { RateLimitRule, RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { SecurityService } from '../security/security.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { coolingOffParams, coolingOffUntil } from '../withdraw/cooling-off.js';
import type { OrderChatMessage, SupportChatService } from '../support-chat/support-chat.service.js';
import type {
  AppealRow,
  ListingRow,
  OrderRow,
  OtcRepository,
  PaymentMethodRow,
  ReputationRow,
  StepRow,
} from './otc.repository.js';

const LISTING_HOLD = 'otc_listing';
const ORDER_HOLD = 'otc_order';
const DEPOSIT_HOLD = 'otc_deposit';
const OPEN_STATES: readonly OtcOrderState[] = ['pending_payment', 'paid', 'appeal'];
/** Orders the timers handle per run and kind; the next run takes the rest. */
const TIMER_BATCH = 200;
const PREVIEW_LENGTH = 60;

/** Order chat messages a member may send (shared by every instance through the database). */
export const OTC_CHAT_PER_MINUTE: RateLimitRule = { name: 'chat:otc:minute', maxAttempts: 20, windowS: 60 };

export interface OtcServiceOptions {
  timeZone: string;
  clock: Clock;
}

export interface OperatorActor {
  operatorId: string;
  origin: RequestOrigin;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));
const parse = (value: string) => money.parseMoney(value);
const format = (value: Money) => money.formatMoney(value);

/** The platform day (YYYY-MM-DD) of a moment in the platform's time zone. */
export function platformDay(now: Date, timeZone: string): string {
  return localTime(now, timeZone).date;
}

/** The next platform midnight after `now`. */
function nextPlatformMidnight(now: Date, timeZone: string): Date {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const secondsToday = value('hour') * 3600 + value('minute') * 60 + value('second');
  return new Date(Math.floor(now.getTime() / 1000) * 1000 + (86_400 - secondsToday) * 1000);
}

function newNumber(prefix: string, now: Date, timeZone: string): string {
  const digits = Array.from({ length: 10 }, () => randomInt(10)).join('');
  return `${prefix}${platformDay(now, timeZone).replace(/-/g, '')}${digits}`;
}

function maskCard(cardNumber: string): string {
  return `**** ${cardNumber.slice(-4)}`;
}

function toPaymentDetail(row: PaymentMethodRow, full: boolean): OtcPaymentDetail {
  return {
    id: row.id,
    type: row.type,
    holderName: row.holder_name ?? '',
    bankName: row.bank_name,
    branch: row.branch,
    cardNumber: row.card_number === null ? null : full ? row.card_number : maskCard(row.card_number),
    account: row.account,
  };
}

function toReputation(row: ReputationRow | undefined): OtcReputation {
  if (!row)
    return { nickname: '', completedOrders30d: 0, completionRate30d: null, avgReleaseSeconds: null, completedOrdersTotal: 0 };
  const total = row.completed_30d + row.failed_30d;
  let rate: string | null = null;
  if (total > 0) {
    const basis = Math.floor((row.completed_30d * 10000) / total);
    rate = `${Math.floor(basis / 100)}.${String(basis % 100).padStart(2, '0')}`;
  }
  return {
    nickname: row.nickname,
    completedOrders30d: row.completed_30d,
    completionRate30d: rate,
    avgReleaseSeconds: row.avg_release_s,
    completedOrdersTotal: row.completed_total,
  };
}

function preview(text: string | undefined): string {
  if (!text) return '';
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}

function roleOf(order: OrderRow, memberId: string): OtcRole | null {
  if (order.buyer_member_id === memberId) return 'buyer';
  if (order.seller_member_id === memberId) return 'seller';
  return null;
}

function listingHoldRef(listing: Pick<ListingRow, 'id' | 'escrow_seq'>) {
  return { referenceType: LISTING_HOLD, referenceId: `${listing.id}:${listing.escrow_seq}` };
}

function orderHoldRef(orderId: string) {
  return { referenceType: ORDER_HOLD, referenceId: orderId };
}

/**
 * OTC trading (issue 14, docs/decisions/031-otc.md): listings, takes, the order flow, order chat,
 * appeals, operator rulings and the timers. Escrow only moves through the ledger's holds; each state
 * change is one transaction that first holds the listing row (takes, cancellations, releases and
 * rulings of one listing go one at a time) and then changes the order only if it is still in the
 * state the action expects, so of two racing actions exactly one wins.
 */
export class OtcService {
  constructor(
    private readonly db: Db,
    private readonly repository: OtcRepository,
    private readonly ledger: LedgerService,
    private readonly security: SecurityService,
    private readonly settings: SettingsService,
    private readonly audit: AuditRepository,
    private readonly memberEvents: MemberEventPublisher,
    private readonly operatorEvents: OperatorEventsService,
    private readonly chat: SupportChatService,
    private readonly rateLimits: RateLimitService,
    private readonly options: OtcServiceOptions,
  ) {}

  private now(): Date {
    return this.options.clock.now();
  }

  private today(now = this.now()): string {
    return platformDay(now, this.options.timeZone);
  }

  // ── Eligibility ──────────────────────────────────────────────────────────────────────────────

  /** Trading is open, the member is real-name approved and not suspended. */
  private async requireTrader(context: MemberSessionContext): Promise<OtcSettings> {
    const settings = await this.settings.get('otc');
    if (!settings.enabled) throw AppError.conflict('otc.disabled');
    if (!(await this.repository.realNameApproved(context.member.id))) throw AppError.forbidden('otc.real_name_required');
    const until = await this.repository.suspendedUntil(context.member.id, this.now());
    if (until) throw new AppError(BusinessCode.FORBIDDEN, 'otc.suspended', { until: until.toISOString() });
    return settings;
  }

  /**
   * The pause after a security reset (decisions 016, 051) covers every OTC step that commits the
   * member's USDT to leave the account: selling into a buy listing, posting a listing (a sell
   * listing's escrow, any listing's deposit) and releasing. Buying USDT stays open.
   */
  private async requireNotCoolingOff(context: MemberSessionContext): Promise<void> {
    const { securityCoolingOffHours } = await this.settings.get('withdraw');
    const until = coolingOffUntil(context.member.securityResetAt, securityCoolingOffHours, this.now());
    if (until)
      throw AppError.conflict('otc.cooling_off', coolingOffParams(until, securityCoolingOffHours, this.options.timeZone));
  }

  private async requireNotBarred(context: MemberSessionContext, settings: OtcSettings, tx: Db | Tx = this.db): Promise<void> {
    const cancels = await this.repository.takerCancels(tx, context.member.id, this.today());
    if (cancels >= settings.takerDailyCancelLimit)
      throw new AppError(BusinessCode.FORBIDDEN, 'otc.taking_barred', { limit: settings.takerDailyCancelLimit });
  }

  // ── Info and market ──────────────────────────────────────────────────────────────────────────

  async info(context: MemberSessionContext): Promise<OtcInfo> {
    const settings = await this.settings.get('otc');
    const now = this.now();
    const memberId = context.member.id;
    const [approved, suspendedUntil, cancels, balances, reputations, methods, pending, withdrawSettings] = await Promise.all([
      this.repository.realNameApproved(memberId),
      this.repository.suspendedUntil(memberId, now),
      this.repository.takerCancels(this.db, memberId, this.today(now)),
      this.ledger.balancesOf([context.account.id]),
      this.repository.reputations([memberId], now),
      this.repository.paymentMethods(memberId),
      this.pendingOrders(memberId),
      this.settings.get('withdraw'),
    ]);
    const coolingOff = coolingOffUntil(context.member.securityResetAt, withdrawSettings.securityCoolingOffHours, now);
    const band = otcPriceBand(settings.guidePrice, settings.priceBandPct);
    return {
      enabled: settings.enabled,
      fiatCurrency: settings.fiatCurrency,
      guidePrice: settings.guidePrice,
      priceMin: band.min,
      priceMax: band.max,
      makerFeePct: settings.makerFeePct,
      paymentWindowMinMinutes: settings.paymentWindowMinMinutes,
      paymentWindowMaxMinutes: settings.paymentWindowMaxMinutes,
      paymentWindowDefaultMinutes: settings.paymentWindowDefaultMinutes,
      releaseWindowMinutes: settings.releaseWindowMinutes,
      orderMinimum: settings.orderMinimum,
      orderMaximum: settings.orderMaximum,
      listingMaximum: settings.listingMaximum,
      listingDeposit: settings.listingDeposit,
      takerDailyCancelLimit: settings.takerDailyCancelLimit,
      me: {
        realNameApproved: approved,
        hasTradePassword: context.member.tradePasswordHash !== null,
        requiresAuthenticator: context.member.totpSecret !== null,
        suspendedUntil: isoOrNull(suspendedUntil),
        cancelsToday: cancels,
        takingBarredUntil:
          cancels >= settings.takerDailyCancelLimit ? nextPlatformMidnight(now, this.options.timeZone).toISOString() : null,
        coolingOffUntil: coolingOff ? coolingOff.toISOString() : null,
        availableUsdt: format(balances.get(`${context.account.id}:USDT:available`) ?? money.ZERO),
        reputation: toReputation(reputations.get(memberId)),
        pendingActionCount: pending.filter((item) => item.needsMyAction).length,
      },
      paymentMethods: methods.map((row) => toPaymentDetail(row, false)),
      serverTime: now.toISOString(),
    };
  }

  async market(
    context: MemberSessionContext,
    query: { side: OtcSide; amount?: string | undefined; paymentType?: OtcMarketListing['paymentTypes'][number] | undefined },
    page: number,
    pageSize: number,
  ) {
    const settings = await this.settings.get('otc');
    const amount = query.amount === undefined ? undefined : format(parse(query.amount));
    const { rows, total } = await this.repository.market(
      { side: query.side, amount, paymentType: query.paymentType, now: this.now() },
      pageSize,
      (page - 1) * pageSize,
    );
    const reputations = await this.repository.reputations([...new Set(rows.map((row) => row.member_id))], this.now());
    return {
      items: rows.map((row) => this.toMarketListing(row, reputations, context.member.id)),
      total,
      page,
      pageSize,
      guidePrice: settings.guidePrice,
      fiatCurrency: settings.fiatCurrency,
    };
  }

  private toMarketListing(row: ListingRow, reputations: Map<string, ReputationRow>, viewerId: string | null): OtcMarketListing {
    const available = parse(row.available);
    const min = row.splittable ? money.min(parse(row.min_per_order), available) : available;
    const max = row.splittable ? money.min(parse(row.max_per_order), available) : available;
    return {
      id: row.id,
      listingNo: row.listing_no,
      side: row.side,
      trader: toReputation(reputations.get(row.member_id)),
      price: row.price,
      quantity: row.quantity,
      available: row.available,
      minPerOrder: format(min),
      maxPerOrder: format(max),
      splittable: row.splittable,
      paymentTypes: row.payment_types,
      paymentWindowMinutes: row.payment_window_minutes,
      terms: row.terms,
      deposit: row.deposit,
      createdAt: iso(row.created_at),
      mine: viewerId === row.member_id,
    };
  }

  private async toMyListing(row: ListingRow, reputations: Map<string, ReputationRow>): Promise<OtcMyListing> {
    const methods = await this.repository.paymentMethods(row.member_id, this.db, row.payment_method_ids);
    return {
      ...this.toMarketListing(row, reputations, row.member_id),
      state: row.state,
      inOrders: row.in_orders,
      completed: row.completed,
      openOrders: row.open_orders,
      makerFeePct: row.fee_pct,
      escrowHeld: row.side === 'sell' ? format(money.add(parse(row.available), parse(row.fee_remaining))) : '0.0000',
      depositStatus: row.deposit_status,
      paymentMethods: methods.map((method) => toPaymentDetail(method, false)),
      updatedAt: iso(row.updated_at),
    };
  }

  private trail<T extends string>(rows: StepRow[]) {
    return rows.map((row) => ({
      step: row.step as T,
      actor: row.actor,
      orderNo: row.order_no,
      note: row.note,
      at: iso(row.created_at),
    }));
  }

  async listingInfo(context: MemberSessionContext, id: string) {
    const row = await this.repository.findListing(id);
    if (!row) throw AppError.notFound();
    const reputations = await this.repository.reputations([row.member_id], this.now());
    const mine = row.member_id === context.member.id;
    // Another member sees a listing only while it is on the market.
    if (!mine && row.state !== 'matching') throw AppError.notFound();
    return {
      listing: this.toMarketListing(row, reputations, context.member.id),
      mine: mine ? await this.listingDetail(row, reputations) : null,
    };
  }

  private async listingDetail(row: ListingRow, reputations: Map<string, ReputationRow>): Promise<OtcListingDetail> {
    return {
      ...(await this.toMyListing(row, reputations)),
      trail: this.trail(await this.repository.listingTrail(row.id)),
    };
  }

  async myListings(
    context: MemberSessionContext,
    filter: { state?: OtcListingState | undefined; side?: OtcSide | undefined },
    page: number,
    pageSize: number,
  ) {
    const { rows, total } = await this.repository.listings(
      { memberId: context.member.id, ...filter },
      pageSize,
      (page - 1) * pageSize,
    );
    const reputations = await this.repository.reputations([context.member.id], this.now());
    return { items: await Promise.all(rows.map((row) => this.toMyListing(row, reputations))), total, page, pageSize };
  }

  // ── Posting and revoking ─────────────────────────────────────────────────────────────────────

  async post(context: MemberSessionContext, body: z.output<typeof otcPostListingRequest>): Promise<OtcListingDetail> {
    const memberId = context.member.id;
    const request = {
      side: body.side,
      quantity: format(parse(body.quantity)),
      price: format(parse(body.price)),
      minPerOrder: format(parse(body.minPerOrder)),
      maxPerOrder: format(parse(body.maxPerOrder)),
      splittable: String(body.splittable),
      paymentMethodIds: [...body.paymentMethodIds].sort().join(','),
      paymentWindowMinutes: String(body.paymentWindowMinutes),
      terms: body.terms,
    };
    const requestHash = fingerprint(request);
    const replay = async (row: ListingRow) => {
      if (row.request_hash !== requestHash) throw AppError.conflict('otc.idempotency_mismatch');
      return this.listingDetail(row, await this.repository.reputations([memberId], this.now()));
    };
    const earlier = await this.repository.listingByClientKey(this.db, memberId, body.idempotencyKey);
    if (earlier) return replay(earlier);
    const settings = await this.requireTrader(context);
    await this.requireNotCoolingOff(context);

    const quantity = parse(request.quantity);
    const price = parse(request.price);
    const band = otcPriceBand(settings.guidePrice, settings.priceBandPct);
    if (price < parse(band.min) || price > parse(band.max)) throw AppError.badRequest('otc.price_out_of_band', band);
    if (quantity > parse(settings.listingMaximum))
      throw AppError.badRequest('otc.amount_above_max', { max: settings.listingMaximum });
    const orderMinimum = parse(settings.orderMinimum);
    const orderMaximum = parse(settings.orderMaximum);
    let min = parse(request.minPerOrder);
    let max = parse(request.maxPerOrder);
    if (!body.splittable) {
      // One taker takes all: the per-order limits are the quantity itself.
      if (quantity < orderMinimum) throw AppError.badRequest('otc.amount_below_min', { min: settings.orderMinimum });
      if (quantity > orderMaximum) throw AppError.badRequest('otc.amount_above_max', { max: settings.orderMaximum });
      min = quantity;
      max = quantity;
    } else {
      if (min < orderMinimum || max > orderMaximum) {
        throw AppError.badRequest('otc.limits_out_of_range', { min: settings.orderMinimum, max: settings.orderMaximum });
      }
      if (min > quantity) throw AppError.badRequest('otc.limits_exceed_quantity');
    }
    if (
      body.paymentWindowMinutes < settings.paymentWindowMinMinutes ||
      body.paymentWindowMinutes > settings.paymentWindowMaxMinutes
    ) {
      throw AppError.badRequest('otc.window_out_of_range', {
        min: settings.paymentWindowMinMinutes,
        max: settings.paymentWindowMaxMinutes,
      });
    }
    const methods = await this.repository.paymentMethods(memberId, this.db, body.paymentMethodIds);
    if (methods.length !== body.paymentMethodIds.length) throw AppError.badRequest('otc.payment_method_invalid');
    const paymentTypes = [...new Set(methods.map((method) => method.type))];
    const fee = body.side === 'sell' ? parse(otcFee(request.quantity, settings.makerFeePct)) : money.ZERO;
    const deposit = parse(settings.listingDeposit);
    const accountId = context.account.id;
    const now = this.now();
    const id = randomUUID();

    try {
      const row = await this.db.transaction(async (tx) => {
        // One lock per member (main and sub-accounts): its posts and their count go one at a time.
        await this.repository.lockMember(tx, memberId);
        await this.ledger.lockBalances(tx, [
          { ownerAccountId: accountId, asset: 'USDT', purpose: 'available' },
          { ownerAccountId: accountId, asset: 'USDT', purpose: 'held' },
        ]);
        const winner = await this.repository.listingByClientKey(tx, memberId, body.idempotencyKey);
        if (winner) return winner;
        const open = await this.repository.countMatchingListings(tx, memberId);
        if (open >= settings.maxOpenListings)
          throw AppError.conflict('otc.too_many_listings', { count: settings.maxOpenListings });
        await this.repository.insertListing(tx, {
          id,
          listingNo: newNumber('L', now, this.options.timeZone),
          memberId,
          accountId,
          side: body.side,
          price: request.price,
          quantity: request.quantity,
          minPerOrder: format(min),
          maxPerOrder: format(max),
          splittable: body.splittable,
          paymentMethodIds: body.paymentMethodIds,
          paymentTypes,
          paymentWindowMinutes: body.paymentWindowMinutes,
          terms: body.terms,
          feePct: settings.makerFeePct,
          feeRemaining: format(fee),
          deposit: format(deposit),
          depositStatus: deposit > 0n ? 'held' : 'none',
          clientKey: body.idempotencyKey,
          requestHash,
          now,
        });
        if (body.side === 'sell') {
          await this.ledger.hold(tx, {
            ownerAccountId: accountId,
            asset: 'USDT',
            amount: money.add(quantity, fee),
            ...listingHoldRef({ id, escrow_seq: 0 }),
            recordType: 'otc_escrow',
          });
        }
        if (deposit > 0n) {
          await this.ledger.hold(tx, {
            ownerAccountId: accountId,
            asset: 'USDT',
            amount: deposit,
            referenceType: DEPOSIT_HOLD,
            referenceId: id,
            recordType: 'otc_escrow',
          });
        }
        await this.repository.insertStep(tx, { scope: 'listing', listingId: id, step: 'posted', actor: 'lister', now });
        await this.memberEvents.publish(tx, memberId, {
          kind: 'otc.listing',
          listingId: id,
          state: 'matching',
          available: request.quantity,
        });
        return (await this.repository.findListing(id, tx))!;
      });
      return await replay(row);
    } catch (error) {
      if (isUniqueViolation(error)) {
        const winner = await this.repository.listingByClientKey(this.db, memberId, body.idempotencyKey);
        if (winner) return replay(winner);
      }
      throw error;
    }
  }

  /** The lister takes a listing off the market: what is not in an order returns at once. */
  async revoke(context: MemberSessionContext, listingId: string): Promise<OtcListingDetail> {
    await this.db.transaction(async (tx) => {
      const listing = await this.repository.lockListing(tx, listingId);
      if (!listing || listing.member_id !== context.member.id) throw AppError.notFound();
      if (listing.state === 'cancelled') return;
      if (listing.state !== 'matching') throw AppError.conflict('otc.listing_closed');
      await this.closeListing(tx, listing, 'lister', null);
    });
    const row = (await this.repository.findListing(listingId))!;
    return this.listingDetail(row, await this.repository.reputations([row.member_id], this.now()));
  }

  private async closeListing(tx: Tx, listing: ListingRow, actor: OtcActor, note: string | null): Promise<void> {
    const now = this.now();
    const escrow = money.add(parse(listing.available), parse(listing.fee_remaining));
    if (listing.side === 'sell' && escrow > 0n) {
      await this.ledger.releaseHold(tx, listingHoldRef(listing), 'otc_refund');
    }
    await this.repository.updateListing(tx, listing.id, {
      available: '0',
      feeRemaining: '0',
      ...(listing.side === 'sell' && escrow > 0n ? { escrowSeq: listing.escrow_seq + 1 } : {}),
      state: 'cancelled',
      now,
    });
    await this.repository.insertStep(tx, { scope: 'listing', listingId: listing.id, step: 'revoked', actor, note, now });
    await this.settleListingIfDone(tx, listing.id, now);
  }

  /**
   * After an order of the listing ended (or the listing was closed): a listing with nothing left and
   * no open order has ended; a closed listing with no open order gives its deposit back.
   */
  private async settleListingIfDone(tx: Tx, listingId: string, now: Date): Promise<void> {
    const listing = (await this.repository.findListing(listingId, tx))!;
    let state = listing.state;
    if (state === 'matching' && parse(listing.available) === 0n && listing.open_orders === 0) {
      state = 'ended';
      await this.repository.updateListing(tx, listingId, { state, now });
      await this.repository.insertStep(tx, { scope: 'listing', listingId, step: 'ended', actor: 'system', now });
    }
    if (state !== 'matching' && listing.open_orders === 0 && listing.deposit_status === 'held') {
      await this.ledger.releaseHold(tx, { referenceType: DEPOSIT_HOLD, referenceId: listingId }, 'otc_refund');
      await this.repository.updateListing(tx, listingId, { depositStatus: 'released', now });
      await this.repository.insertStep(tx, { scope: 'listing', listingId, step: 'deposit_released', actor: 'system', now });
    }
    await this.memberEvents.publish(tx, listing.member_id, {
      kind: 'otc.listing',
      listingId,
      state,
      available: format(parse(listing.available)),
    });
  }

  // ── Taking a listing ─────────────────────────────────────────────────────────────────────────

  /** POST /api/otc/buy: take a sell listing. */
  buy(context: MemberSessionContext, body: z.output<typeof otcBuyRequest>): Promise<OtcOrderDetail> {
    return this.take(context, 'sell', body, undefined, async () => {});
  }

  /** POST /api/otc/sell: take a buy listing, holding the taker's USDT. */
  async sell(context: MemberSessionContext, body: z.output<typeof otcSellRequest>): Promise<OtcOrderDetail> {
    // What a withdrawal needs (decision 051): the USDT is committed to leave the account.
    await this.security.verifyTradePassword(context.member, body.tradePassword, context.sessionId);
    return this.take(context, 'buy', body, body.paymentMethodIds, async () => {
      await this.requireNotCoolingOff(context);
      // Checked last among the member's inputs: a wrong code is counted.
      await this.security.requireAuthenticatorCode(context.member, body.googleCode);
    });
  }

  private async take(
    context: MemberSessionContext,
    listingSide: OtcSide,
    body: { listingId: string; amount: string; idempotencyKey: string },
    paymentMethodIds: readonly string[] | undefined,
    /** The side's own checks, after a replay is answered and before anything is held. */
    authorise: () => Promise<void>,
  ): Promise<OtcOrderDetail> {
    const memberId = context.member.id;
    const amount = parse(body.amount);
    const requestHash = fingerprint({
      listingId: body.listingId,
      amount: format(amount),
      side: listingSide,
      methods: [...(paymentMethodIds ?? [])].sort().join(','),
    });
    const replay = (row: OrderRow) => {
      if (row.request_hash !== requestHash) throw AppError.conflict('otc.idempotency_mismatch');
      return this.orderDetail(row, memberId);
    };
    const earlier = await this.repository.orderByClientKey(this.db, memberId, body.idempotencyKey);
    if (earlier) return replay(earlier);
    const settings = await this.requireTrader(context);
    await this.requireNotBarred(context, settings);

    // A seller-taker's payment details: their own methods, of a type the buy listing accepts.
    let takerMethods: PaymentMethodRow[] = [];
    if (paymentMethodIds) {
      takerMethods = await this.repository.paymentMethods(memberId, this.db, paymentMethodIds);
      if (takerMethods.length !== paymentMethodIds.length) throw AppError.badRequest('otc.payment_method_invalid');
    }
    await authorise();

    const now = this.now();
    const orderId = randomUUID();
    try {
      const order = await this.db.transaction(async (tx) => {
        // The taker first (the open-order limit is counted under it), then the listing.
        await this.repository.lockMember(tx, memberId);
        const listing = await this.repository.lockListing(tx, body.listingId);
        if (!listing || listing.side !== listingSide) throw AppError.notFound();
        const winner = await this.repository.orderByClientKey(tx, memberId, body.idempotencyKey);
        if (winner) return winner;
        if (listing.member_id === memberId) throw AppError.conflict('otc.own_listing');
        if (listing.state !== 'matching') throw AppError.conflict('otc.listing_unavailable');
        if (!(await this.repository.listerAvailable(tx, listing.member_id, now)))
          throw AppError.conflict('otc.listing_unavailable');
        const available = parse(listing.available);
        if (available === 0n) throw AppError.conflict('otc.listing_unavailable');
        if (!listing.splittable) {
          if (amount !== available) throw AppError.badRequest('otc.not_splittable', { quantity: listing.available });
        } else {
          if (amount > available) throw AppError.conflict('otc.insufficient_available', { available: listing.available });
          const min = money.min(parse(listing.min_per_order), available);
          const max = money.min(parse(listing.max_per_order), available);
          if (amount < min) throw AppError.badRequest('otc.amount_below_min', { min: format(min) });
          if (amount > max) throw AppError.badRequest('otc.amount_above_max', { max: format(max) });
        }
        if ((await this.repository.openTakerOrders(tx, memberId)) >= settings.maxOpenTakerOrders) {
          throw AppError.conflict('otc.too_many_open_orders', { count: settings.maxOpenTakerOrders });
        }
        await this.requireNotBarred(context, settings, tx);

        const takerRole: OtcRole = listingSide === 'sell' ? 'buyer' : 'seller';
        let fee: Money;
        let escrow: Money;
        let paymentDetails: PaymentMethodRow[];
        let feeRemaining = parse(listing.fee_remaining);
        if (listingSide === 'sell') {
          // The maker (seller) pays the fee: this order's share of the listing's escrowed fee.
          const remaining = parse(listing.fee_remaining);
          fee = amount === available ? remaining : money.min(parse(otcFee(format(amount), listing.fee_pct)), remaining);
          escrow = money.add(amount, fee);
          feeRemaining = money.subtract(remaining, fee);
          paymentDetails = await this.repository.paymentMethods(listing.member_id, tx, listing.payment_method_ids);
          if (paymentDetails.length === 0) throw AppError.conflict('otc.listing_unavailable');
        } else {
          // The maker (buyer) pays the fee out of the USDT received.
          fee = parse(otcFee(format(amount), listing.fee_pct));
          if (fee >= amount) throw AppError.badRequest('otc.amount_below_min', { min: listing.min_per_order });
          escrow = amount;
          if (takerMethods.some((method) => !listing.payment_types.includes(method.type))) {
            throw AppError.badRequest('otc.payment_type_not_accepted');
          }
          paymentDetails = takerMethods;
        }
        const buyer =
          takerRole === 'buyer'
            ? { memberId, accountId: context.account.id }
            : { memberId: listing.member_id, accountId: listing.account_id };
        const seller =
          takerRole === 'seller'
            ? { memberId, accountId: context.account.id }
            : { memberId: listing.member_id, accountId: listing.account_id };
        await this.repository.insertOrder(tx, {
          id: orderId,
          orderNo: newNumber('P', now, this.options.timeZone),
          listingId: listing.id,
          listingSide,
          buyerMemberId: buyer.memberId,
          buyerAccountId: buyer.accountId,
          sellerMemberId: seller.memberId,
          sellerAccountId: seller.accountId,
          takerMemberId: memberId,
          takerRole,
          amount: format(amount),
          price: listing.price,
          fiatAmount: otcFiatAmount(format(amount), listing.price),
          fee: format(fee),
          escrow: format(escrow),
          paymentDetails: paymentDetails.map((method) => toPaymentDetail(method, true)),
          terms: listing.terms,
          payDeadline: new Date(now.getTime() + listing.payment_window_minutes * 60_000),
          clientKey: body.idempotencyKey,
          requestHash,
          now,
        });
        const newAvailable = money.subtract(available, amount);
        if (listingSide === 'sell') {
          await this.ledger.moveHold(tx, {
            from: listingHoldRef(listing),
            to: orderHoldRef(orderId),
            amount: escrow,
            idempotencyKey: `otc:take:${orderId}`,
            recordType: 'otc_escrow',
          });
        } else {
          await this.ledger.hold(tx, {
            ownerAccountId: context.account.id,
            asset: 'USDT',
            amount: escrow,
            ...orderHoldRef(orderId),
            recordType: 'otc_escrow',
          });
        }
        const usedUp = listingSide === 'sell' && newAvailable === 0n && feeRemaining === 0n;
        await this.repository.updateListing(tx, listing.id, {
          available: format(newAvailable),
          feeRemaining: format(feeRemaining),
          ...(usedUp ? { escrowSeq: listing.escrow_seq + 1 } : {}),
          now,
        });
        const conversationId = await this.chat.openOrderConversation(tx, {
          buyerMemberId: buyer.memberId,
          sellerMemberId: seller.memberId,
        });
        await this.repository.setConversation(tx, orderId, conversationId);
        await this.repository.insertStep(tx, {
          scope: 'order',
          listingId: listing.id,
          orderId,
          step: 'created',
          actor: takerRole,
          now,
        });
        await this.repository.insertStep(tx, {
          scope: 'listing',
          listingId: listing.id,
          orderId,
          step: 'order_opened',
          actor: takerRole,
          now,
        });
        const row = (await this.repository.findOrder(orderId, tx))!;
        await this.announce(tx, row, 'created');
        await this.memberEvents.publish(tx, listing.member_id, {
          kind: 'otc.listing',
          listingId: listing.id,
          state: 'matching',
          available: format(newAvailable),
        });
        return row;
      });
      return await replay(order);
    } catch (error) {
      if (isUniqueViolation(error)) {
        const winner = await this.repository.orderByClientKey(this.db, memberId, body.idempotencyKey);
        if (winner) return replay(winner);
      }
      throw error;
    }
  }

  // ── The order flow ───────────────────────────────────────────────────────────────────────────

  /** An order of the member's, with their role in it; another member's is simply not found. */
  private async partyOrder(context: MemberSessionContext, orderId: string): Promise<{ order: OrderRow; role: OtcRole }> {
    const order = await this.repository.findOrder(orderId);
    const role = order ? roleOf(order, context.member.id) : null;
    if (!order || !role) throw AppError.notFound();
    return { order, role };
  }

  /** Why an action found the order in another state than it needs. */
  private stateError(order: OrderRow): AppError {
    if (order.state === 'appeal') return AppError.conflict('otc.frozen');
    return AppError.conflict('otc.wrong_state');
  }

  async confirmPay(context: MemberSessionContext, orderId: string): Promise<OtcOrderDetail> {
    const { order, role } = await this.partyOrder(context, orderId);
    if (role !== 'buyer') throw AppError.forbidden();
    const settings = await this.settings.get('otc');
    await this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      const now = this.now();
      const changed = await this.repository.transition(
        tx,
        orderId,
        ['pending_payment'],
        {
          state: 'paid',
          paidAt: now,
          appealAllowedAt: new Date(now.getTime() + settings.releaseWindowMinutes * 60_000),
          now,
        },
        sql`pay_deadline > ${now}`,
      );
      if (!changed) {
        const current = (await this.repository.findOrder(orderId, tx))!;
        if (current.state === 'paid') return;
        if (current.state === 'pending_payment' || current.cancel_reason === 'payment_timeout') {
          throw AppError.conflict('otc.pay_window_passed');
        }
        throw this.stateError(current);
      }
      await this.repository.insertStep(tx, {
        scope: 'order',
        listingId: order.listing_id,
        orderId,
        step: 'paid',
        actor: 'buyer',
        now,
      });
      await this.announce(tx, changed, 'paid');
    });
    return this.orderDetail((await this.repository.findOrder(orderId))!, context.member.id);
  }

  buyerCancel(context: MemberSessionContext, orderId: string): Promise<OtcOrderDetail> {
    return this.partyCancel(context, orderId, 'buyer');
  }

  sellerCancel(context: MemberSessionContext, orderId: string): Promise<OtcOrderDetail> {
    return this.partyCancel(context, orderId, 'seller');
  }

  private async partyCancel(context: MemberSessionContext, orderId: string, as: OtcRole): Promise<OtcOrderDetail> {
    const { order, role } = await this.partyOrder(context, orderId);
    if (role !== as) throw AppError.forbidden();
    const reason = as === 'buyer' ? 'buyer_cancelled' : 'seller_cancelled';
    await this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      const now = this.now();
      const changed = await this.repository.transition(tx, orderId, ['pending_payment'], {
        state: 'cancelled',
        cancelledAt: now,
        cancelReason: reason,
        ...(order.taker_role === as ? { takerCancelDay: this.today(now) } : {}),
        now,
      });
      if (!changed) {
        const current = (await this.repository.findOrder(orderId, tx))!;
        if (current.state === 'cancelled' && current.cancel_reason === reason) return;
        if (as === 'seller' && current.state === 'paid') throw AppError.conflict('otc.seller_cancel_after_paid');
        throw this.stateError(current);
      }
      await this.finishCancelled(tx, changed, as, null, now);
    });
    return this.orderDetail((await this.repository.findOrder(orderId))!, context.member.id);
  }

  /** A cancelled order's escrow goes back: to its listing while the listing is on the market, else to the seller. */
  private async finishCancelled(tx: Tx, order: OrderRow, actor: OtcActor, note: string | null, now: Date): Promise<void> {
    const listing = (await this.repository.findListing(order.listing_id, tx))!;
    const amount = parse(order.amount);
    if (order.listing_side === 'sell' && listing.state === 'matching') {
      await this.ledger.moveHold(tx, {
        from: orderHoldRef(order.id),
        to: listingHoldRef(listing),
        amount: parse(order.escrow),
        idempotencyKey: `otc:return:${order.id}`,
        recordType: 'otc_escrow',
      });
      await this.repository.updateListing(tx, listing.id, {
        available: format(money.add(parse(listing.available), amount)),
        feeRemaining: format(money.add(parse(listing.fee_remaining), parse(order.fee))),
        now,
      });
    } else {
      await this.ledger.releaseHold(tx, orderHoldRef(order.id), 'otc_refund');
      if (order.listing_side === 'buy' && listing.state === 'matching') {
        await this.repository.updateListing(tx, listing.id, {
          available: format(money.add(parse(listing.available), amount)),
          now,
        });
      }
    }
    await this.repository.insertStep(tx, {
      scope: 'order',
      listingId: order.listing_id,
      orderId: order.id,
      step: 'cancelled',
      actor,
      note: note ?? order.cancel_reason,
      now,
    });
    await this.repository.insertStep(tx, {
      scope: 'listing',
      listingId: order.listing_id,
      orderId: order.id,
      step: 'order_cancelled',
      actor,
      now,
    });
    await this.announce(tx, order, 'cancelled');
    await this.settleListingIfDone(tx, order.listing_id, now);
  }

  /** The seller releases: the order's escrow goes to the buyer (less the buyer-maker's fee) and the fee to the platform. */
  async release(context: MemberSessionContext, body: z.output<typeof otcReleaseRequest>): Promise<OtcOrderDetail> {
    const { order, role } = await this.partyOrder(context, body.orderId);
    if (role !== 'seller') throw AppError.forbidden();
    await this.security.verifyTradePassword(context.member, body.tradePassword, context.sessionId);
    if (order.state === 'completed') return this.orderDetail(order, context.member.id);
    if (!OPEN_STATES.includes(order.state)) throw this.stateError(order);
    await this.requireNotCoolingOff(context);
    await this.security.requireAuthenticatorCode(context.member, body.googleCode);
    await this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      await this.lockOrderAccounts(tx, order);
      const now = this.now();
      const changed = await this.repository.transition(tx, order.id, ['pending_payment', 'paid'], {
        state: 'completed',
        completedAt: now,
        now,
      });
      if (!changed) {
        const current = (await this.repository.findOrder(order.id, tx))!;
        if (current.state === 'completed') return;
        throw this.stateError(current);
      }
      await this.finishCompleted(tx, changed, 'seller', null, now);
    });
    return this.orderDetail((await this.repository.findOrder(order.id))!, context.member.id);
  }

  /** Locks every account a settlement of the order may touch, in the ledger's one order (no deadlocks between entries). */
  private async lockOrderAccounts(tx: Tx, order: OrderRow): Promise<void> {
    const listing = (await this.repository.findListing(order.listing_id, tx))!;
    const refs: LedgerAccountRef[] = [
      { ownerAccountId: order.seller_account_id, asset: 'USDT', purpose: 'held' },
      { ownerAccountId: order.seller_account_id, asset: 'USDT', purpose: 'available' },
      { ownerAccountId: order.buyer_account_id, asset: 'USDT', purpose: 'available' },
      { ownerAccountId: listing.account_id, asset: 'USDT', purpose: 'held' },
      { ownerAccountId: listing.account_id, asset: 'USDT', purpose: 'available' },
      { platformCode: 'fees', asset: 'USDT' },
    ];
    await this.ledger.lockBalances(tx, refs);
  }

  private async finishCompleted(tx: Tx, order: OrderRow, actor: OtcActor, note: string | null, now: Date): Promise<void> {
    const amount = parse(order.amount);
    const fee = parse(order.fee);
    const received = order.listing_side === 'sell' ? amount : money.subtract(amount, fee);
    await this.ledger.captureHoldSplit(
      tx,
      orderHoldRef(order.id),
      [
        {
          account: { ownerAccountId: order.buyer_account_id, asset: 'USDT', purpose: 'available' },
          amount: received,
          recordType: 'otc_received',
        },
        { account: { platformCode: 'fees', asset: 'USDT' }, amount: fee, recordType: 'otc_release' },
      ],
      'otc_release',
    );
    await this.repository.updateListing(tx, order.listing_id, { completedDelta: format(amount), now });
    await this.repository.insertStep(tx, {
      scope: 'order',
      listingId: order.listing_id,
      orderId: order.id,
      step: 'released',
      actor,
      note,
      now,
    });
    await this.repository.insertStep(tx, {
      scope: 'listing',
      listingId: order.listing_id,
      orderId: order.id,
      step: 'order_completed',
      actor,
      now,
    });
    await this.announce(tx, order, 'released');
    await this.settleListingIfDone(tx, order.listing_id, now);
  }

  async appeal(context: MemberSessionContext, body: z.output<typeof otcAppealRequest>): Promise<OtcOrderDetail> {
    const { order, role } = await this.partyOrder(context, body.orderId);
    try {
      await this.db.transaction(async (tx) => {
        await this.repository.lockListing(tx, order.listing_id);
        const now = this.now();
        const current = (await this.repository.findOrder(order.id, tx))!;
        if (current.state !== 'paid' && current.state !== 'appeal') throw AppError.conflict('otc.wrong_state');
        if (current.state === 'paid' && current.appeal_allowed_at && new Date(current.appeal_allowed_at) > now) {
          throw AppError.conflict('otc.appeal_too_early', { at: iso(current.appeal_allowed_at) });
        }
        if (!(await this.repository.evidenceUsable(tx, context.member.id, body.imageIds))) {
          throw AppError.badRequest('otc.evidence_missing');
        }
        const opening = current.state === 'paid';
        if (opening) {
          const frozen = await this.repository.transition(tx, order.id, ['paid'], { state: 'appeal', now });
          if (!frozen) throw AppError.conflict('otc.wrong_state');
        }
        const appealId = await this.repository.insertAppeal(tx, {
          orderId: order.id,
          byRole: role,
          byMemberId: context.member.id,
          opening,
          reason: body.reason,
          description: body.description,
          imageIds: body.imageIds,
          now,
        });
        if (!appealId) throw AppError.conflict('otc.appeal_exists');
        await this.repository.insertStep(tx, {
          scope: 'order',
          listingId: order.listing_id,
          orderId: order.id,
          step: 'appealed',
          actor: role,
          note: body.reason,
          now,
        });
        const row = (await this.repository.findOrder(order.id, tx))!;
        await this.announce(tx, row, 'appealed');
        await this.operatorEvents.publishOtc(tx, { kind: 'otc.appeal', orderId: order.id, appealId, status: 'open' });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict('otc.appeal_exists');
      throw error;
    }
    return this.orderDetail((await this.repository.findOrder(order.id))!, context.member.id);
  }

  // ── Timers ───────────────────────────────────────────────────────────────────────────────────

  /**
   * The timers' one run (a job every minute, on any number of instances): payment windows that
   * passed cancel their orders, release windows that passed are marked (appeals open). Each order is
   * its own transaction whose change is conditional, so a run repeated, or running on two instances
   * at once, or meeting a member's or operator's action, changes an order at most once; an order
   * under appeal matches neither condition, so nothing happens to it.
   */
  async runTimers(): Promise<{ expired: number; overdue: number }> {
    const now = this.now();
    let expired = 0;
    let overdue = 0;
    for (const id of await this.repository.dueForTimeout(now, TIMER_BATCH)) if (await this.expire(id)) expired += 1;
    for (const id of await this.repository.dueForOverdue(now, TIMER_BATCH)) if (await this.markOverdue(id)) overdue += 1;
    return { expired, overdue };
  }

  /** Cancels one order whose payment window passed; false when it was not (any longer) due. */
  async expire(orderId: string): Promise<boolean> {
    const order = await this.repository.findOrder(orderId);
    if (!order) return false;
    return this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      const now = this.now();
      const changed = await this.repository.transition(
        tx,
        orderId,
        ['pending_payment'],
        {
          state: 'cancelled',
          cancelledAt: now,
          cancelReason: 'payment_timeout',
          // The buyer let the window pass: it counts as the buyer's cancellation when the buyer took the listing.
          ...(order.taker_role === 'buyer' ? { takerCancelDay: this.today(now) } : {}),
          now,
        },
        sql`pay_deadline <= ${now}`,
      );
      if (!changed) return false;
      await this.finishCancelled(tx, changed, 'system', 'payment_timeout', now);
      return true;
    });
  }

  async markOverdue(orderId: string): Promise<boolean> {
    const order = await this.repository.findOrder(orderId);
    if (!order) return false;
    return this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      const now = this.now();
      const changed = await this.repository.transition(
        tx,
        orderId,
        ['paid'],
        { releaseOverdueAt: now, now },
        sql`release_overdue_at is null and appeal_allowed_at <= ${now}`,
      );
      if (!changed) return false;
      await this.repository.insertStep(tx, {
        scope: 'order',
        listingId: order.listing_id,
        orderId,
        step: 'release_overdue',
        actor: 'system',
        now,
      });
      await this.announce(tx, changed, 'release_overdue');
      return true;
    });
  }

  // ── Lists and detail ─────────────────────────────────────────────────────────────────────────

  async myOrders(context: MemberSessionContext, role: OtcRole, state: OtcOrderState | undefined, page: number, pageSize: number) {
    const filter = role === 'buyer' ? { buyerMemberId: context.member.id } : { sellerMemberId: context.member.id };
    const { rows, total } = await this.repository.orders(
      { ...filter, ...(state ? { state } : {}) },
      pageSize,
      (page - 1) * pageSize,
    );
    return { items: await this.orderViews(rows, context.member.id), total, page, pageSize };
  }

  private async pendingOrders(memberId: string) {
    const { rows } = await this.repository.orders({ memberId, states: OPEN_STATES }, 100, 0);
    const views = await this.orderViews(rows, memberId);
    const items = views.map((view) => ({ ...view, needsMyAction: needsAction(view) }));
    return items.sort((a, b) => Number(b.needsMyAction) - Number(a.needsMyAction));
  }

  async pendingList(context: MemberSessionContext) {
    return { items: await this.pendingOrders(context.member.id) };
  }

  async pendingInfo(context: MemberSessionContext) {
    const items = await this.pendingOrders(context.member.id);
    return { open: items.length, needsMyAction: items.filter((item) => item.needsMyAction).length };
  }

  async orderInfo(context: MemberSessionContext, orderId: string): Promise<OtcOrderDetail> {
    const { order } = await this.partyOrder(context, orderId);
    return this.orderDetail(order, context.member.id);
  }

  private async orderViews(rows: OrderRow[], viewerId: string): Promise<OtcOrder[]> {
    if (rows.length === 0) return [];
    const settings = await this.settings.get('otc');
    const now = this.now();
    const counterparts = rows.map((row) => (row.buyer_member_id === viewerId ? row.seller_member_id : row.buyer_member_id));
    const [reputations, appeals] = await Promise.all([
      this.repository.reputations([...new Set(counterparts)], now),
      this.repository.appealsOf(rows.map((row) => row.id)),
    ]);
    return rows.map((row) =>
      this.toOrder(
        row,
        viewerId,
        reputations,
        appeals.filter((appeal) => appeal.order_id === row.id),
        settings,
        now,
      ),
    );
  }

  private async orderDetail(row: OrderRow, viewerId: string): Promise<OtcOrderDetail> {
    const [view] = await this.orderViews([row], viewerId);
    return { ...view!, trail: this.trail<OtcOrderStep>(await this.repository.orderTrail(row.id)) };
  }

  private toOrder(
    row: OrderRow,
    viewerId: string,
    reputations: Map<string, ReputationRow>,
    appeals: AppealRow[],
    settings: OtcSettings,
    now: Date,
  ): OtcOrder {
    const role: OtcRole = row.buyer_member_id === viewerId ? 'buyer' : 'seller';
    const counterpart = role === 'buyer' ? row.seller_member_id : row.buyer_member_id;
    const open = OPEN_STATES.includes(row.state);
    const pending = row.state === 'pending_payment';
    const myAppeal = appeals.some((appeal) => appeal.by_role === role);
    const appealOpen =
      (row.state === 'paid' && row.appeal_allowed_at !== null && new Date(row.appeal_allowed_at) <= now) ||
      (row.state === 'appeal' && !myAppeal);
    const amount = parse(row.amount);
    return {
      id: row.id,
      orderNo: row.order_no,
      listingId: row.listing_id,
      listingNo: row.listing_no,
      myRole: role,
      iAmMaker: row.listing_member_id === viewerId,
      state: row.state,
      amount: row.amount,
      price: row.price,
      fiatCurrency: settings.fiatCurrency,
      fiatAmount: row.fiat_amount,
      fee: row.fee,
      buyerReceives: format(row.listing_side === 'sell' ? amount : money.subtract(amount, parse(row.fee))),
      counterparty: toReputation(reputations.get(counterpart)),
      paymentMethods: role === 'buyer' && open ? (row.payment_details as OtcPaymentDetail[]) : [],
      payDeadline: iso(row.pay_deadline),
      paidAt: isoOrNull(row.paid_at),
      appealAllowedAt: isoOrNull(row.appeal_allowed_at),
      completedAt: isoOrNull(row.completed_at),
      cancelledAt: isoOrNull(row.cancelled_at),
      cancelReason: row.cancel_reason,
      appeals: appeals.map(toAppeal),
      actions: {
        confirmPay: role === 'buyer' && pending && new Date(row.pay_deadline) > now,
        buyerCancel: role === 'buyer' && pending,
        sellerCancel: role === 'seller' && pending,
        release: role === 'seller' && (pending || row.state === 'paid'),
        appeal: appealOpen,
        chat: open,
      },
      terms: row.terms,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
      serverTime: now.toISOString(),
    };
  }

  /** Tells both parties (and the console) that an order took a step. */
  private async announce(tx: Tx, order: OrderRow, step: OtcOrderStep): Promise<void> {
    const data = { kind: 'otc.order' as const, orderId: order.id, orderNo: order.order_no, state: order.state, step };
    await this.memberEvents.publish(tx, order.buyer_member_id, data);
    await this.memberEvents.publish(tx, order.seller_member_id, data);
    await this.operatorEvents.publishOtc(tx, { kind: 'otc.order', orderId: order.id, state: order.state, step });
  }

  // ── Order chat ───────────────────────────────────────────────────────────────────────────────

  private toChatMessage(message: OrderChatMessage, order: OrderRow, viewerId: string | null): OtcChatMessage {
    const sender =
      message.senderMemberId === null ? 'agent' : message.senderMemberId === order.buyer_member_id ? 'buyer' : 'seller';
    return {
      id: message.id,
      sender,
      mine: viewerId !== null && message.senderMemberId === viewerId,
      text: message.text,
      hasImage: message.hasImage,
      createdAt: message.createdAt,
    };
  }

  async chatHistory(
    context: MemberSessionContext,
    orderId: string,
    before: string | undefined,
    limit: number,
  ): Promise<OtcChatHistory> {
    const { order, role } = await this.partyOrder(context, orderId);
    const conversationId = order.conversation_id!;
    const page = await this.chat.orderMessages(conversationId, before, limit);
    const marks = await this.chat.orderReadMarks(conversationId);
    const counterpart = role === 'buyer' ? order.seller_member_id : order.buyer_member_id;
    return {
      items: page.items.map((message) => this.toChatMessage(message, order, context.member.id)),
      nextBefore: page.nextBefore,
      counterpartyReadUpTo: marks.get(counterpart) ?? '0',
      open: OPEN_STATES.includes(order.state),
    };
  }

  async chatSend(context: MemberSessionContext, body: z.output<typeof otcChatSendRequest>): Promise<OtcChatMessage> {
    const { order, role } = await this.partyOrder(context, body.orderId);
    if (!OPEN_STATES.includes(order.state)) throw AppError.conflict('otc.chat_closed');
    try {
      await this.rateLimits.consume(OTC_CHAT_PER_MINUTE, context.member.id);
    } catch (error) {
      if (error instanceof AppError && error.code === BusinessCode.TOO_MANY_REQUESTS) {
        throw new AppError(error.code, 'chat.too_many', error.params, error.headers);
      }
      throw error;
    }
    const counterpart = role === 'buyer' ? order.seller_member_id : order.buyer_member_id;
    try {
      const message = await this.db.transaction(async (tx) => {
        const posted = await this.chat.postOrderMessage(
          tx,
          order.conversation_id!,
          { memberId: context.member.id },
          { text: body.text, imageId: body.imageId },
        );
        await this.memberEvents.publish(tx, counterpart, {
          kind: 'otc.chat',
          orderId: order.id,
          messageId: posted.id,
          preview: preview(body.text),
        });
        await this.operatorEvents.publishOtc(tx, { kind: 'otc.chat', orderId: order.id, messageId: posted.id });
        return posted;
      });
      return this.toChatMessage(message, order, context.member.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.badRequest('chat.image_missing');
      throw error;
    }
  }

  async chatRead(context: MemberSessionContext, orderId: string, upTo: string): Promise<void> {
    const { order, role } = await this.partyOrder(context, orderId);
    const counterpart = role === 'buyer' ? order.seller_member_id : order.buyer_member_id;
    await this.db.transaction(async (tx) => {
      // Only a mark that moved is news to the other party (their ticks); a repeated read sends nothing.
      const readUpTo = await this.chat.markOrderRead(tx, order.conversation_id!, context.member.id, upTo);
      if (readUpTo !== null)
        await this.memberEvents.publish(tx, counterpart, { kind: 'otc.chat_read', orderId: order.id, readUpTo });
    });
  }

  async chatImage(context: MemberSessionContext, orderId: string, messageId: string) {
    const { order } = await this.partyOrder(context, orderId);
    return this.chat.orderImage(order.conversation_id!, messageId);
  }

  async evidenceImage(context: MemberSessionContext, orderId: string, uploadId: string) {
    const { order } = await this.partyOrder(context, orderId);
    const image = await this.repository.evidenceOfOrder(order.id, uploadId);
    if (!image) throw AppError.notFound();
    return image;
  }

  // ── Console ──────────────────────────────────────────────────────────────────────────────────

  getSettings(): Promise<OtcSettings> {
    return this.settings.get('otc');
  }

  async updateSettings(actor: OperatorActor, next: OtcSettings): Promise<OtcSettings> {
    const before = await this.settings.get('otc');
    await this.db.transaction(async (tx) => {
      await this.settings.set('otc', next, actor.operatorId, tx);
      await this.recordAudit(tx, actor, 'otc.settings_updated', 'setting', 'otc', before, next);
    });
    return this.settings.get('otc');
  }

  private async recordAudit(
    tx: Tx,
    actor: OperatorActor,
    action: string,
    targetType: string,
    targetId: string,
    before: unknown,
    after: unknown,
  ): Promise<void> {
    await this.audit.record(
      {
        operatorId: actor.operatorId,
        action,
        targetType,
        targetId,
        before,
        after,
        ip: actor.origin.ip,
        requestId: actor.origin.requestId,
      },
      tx,
    );
  }

  private async adminParties(memberIds: readonly string[]): Promise<Map<string, AdminOtcParty>> {
    const unique = [...new Set(memberIds)];
    const now = this.now();
    const [parties, reputations] = await Promise.all([this.repository.parties(unique), this.repository.reputations(unique, now)]);
    const result = new Map<string, AdminOtcParty>();
    for (const id of unique) {
      const party = parties.get(id);
      if (!party) continue;
      const until = await this.repository.suspendedUntil(id, now);
      result.set(id, {
        memberId: id,
        accountId: party.account_id,
        email: party.email,
        nickname: party.nickname,
        reputation: toReputation(reputations.get(id)),
        suspendedUntil: isoOrNull(until),
      });
    }
    return result;
  }

  async adminListings(
    filter: { state?: OtcListingState | undefined; side?: OtcSide | undefined; query?: string | undefined },
    page: number,
    pageSize: number,
  ) {
    const { rows, total } = await this.repository.listings(filter, pageSize, (page - 1) * pageSize);
    const parties = await this.adminParties(rows.map((row) => row.member_id));
    const reputations = await this.repository.reputations([...new Set(rows.map((row) => row.member_id))], this.now());
    const items: AdminOtcListing[] = await Promise.all(
      rows.map(async (row) => ({ ...(await this.toMyListing(row, reputations)), lister: parties.get(row.member_id)! })),
    );
    return { items, total, page, pageSize };
  }

  async adminRevoke(actor: OperatorActor, listingId: string, reason: string) {
    await this.db.transaction(async (tx) => {
      const listing = await this.repository.lockListing(tx, listingId);
      if (!listing) throw AppError.notFound();
      if (listing.state !== 'matching') throw AppError.conflict('otc.listing_closed');
      await this.closeListing(tx, listing, 'operator', reason);
      await this.recordAudit(
        tx,
        actor,
        'otc.listing_revoked',
        'otc_listing',
        listingId,
        { state: listing.state, available: listing.available },
        { state: 'cancelled', reason },
      );
    });
    const { items } = await this.adminListings({ query: (await this.repository.findListing(listingId))!.listing_no }, 1, 1);
    return items[0]!;
  }

  private async adminOrderViews(rows: OrderRow[]): Promise<AdminOtcOrder[]> {
    const settings = await this.settings.get('otc');
    const parties = await this.adminParties(rows.flatMap((row) => [row.buyer_member_id, row.seller_member_id]));
    return rows.map((row) => ({
      id: row.id,
      orderNo: row.order_no,
      listingId: row.listing_id,
      listingNo: row.listing_no,
      listingSide: row.listing_side,
      state: row.state,
      amount: row.amount,
      price: row.price,
      fiatCurrency: settings.fiatCurrency,
      fiatAmount: row.fiat_amount,
      fee: row.fee,
      buyer: parties.get(row.buyer_member_id)!,
      seller: parties.get(row.seller_member_id)!,
      taker: row.taker_role,
      payDeadline: iso(row.pay_deadline),
      paidAt: isoOrNull(row.paid_at),
      appealAllowedAt: isoOrNull(row.appeal_allowed_at),
      completedAt: isoOrNull(row.completed_at),
      cancelledAt: isoOrNull(row.cancelled_at),
      cancelReason: row.cancel_reason,
      escrowHeld: OPEN_STATES.includes(row.state) ? row.escrow : '0.0000',
      createdAt: iso(row.created_at),
    }));
  }

  async adminOrders(
    filter: {
      state?: OtcOrderState | undefined;
      query?: string | undefined;
      side?: OtcSide | undefined;
      from?: string | undefined;
      to?: string | undefined;
    },
    page: number,
    pageSize: number,
  ) {
    // Days are platform days: from the first day's midnight to the midnight after the last one.
    const { rows, total } = await this.repository.orders(
      {
        ...(filter.state ? { state: filter.state } : {}),
        ...(filter.query ? { query: filter.query } : {}),
        ...(filter.side ? { side: filter.side } : {}),
        ...(filter.from ? { createdFrom: instantOf(filter.from, '00:00', this.options.timeZone) } : {}),
        ...(filter.to ? { createdBefore: instantOf(addDays(filter.to, 1), '00:00', this.options.timeZone) } : {}),
      },
      pageSize,
      (page - 1) * pageSize,
    );
    return { items: await this.adminOrderViews(rows), total, page, pageSize };
  }

  async adminOrder(orderId: string): Promise<AdminOtcOrderDetail> {
    const row = await this.repository.findOrder(orderId);
    if (!row) throw AppError.notFound();
    const [[view], appeals, trail, listing] = await Promise.all([
      this.adminOrderViews([row]),
      this.repository.appealsOf([row.id]),
      this.repository.orderTrail(row.id),
      this.repository.findListing(row.listing_id),
    ]);
    return {
      ...view!,
      trail: this.trail<OtcOrderStep>(trail),
      appeals: appeals.map(toAppeal),
      paymentMethods: row.payment_details as OtcPaymentDetail[],
      terms: row.terms,
      listingDeposit: listing!.deposit,
      listingDepositStatus: listing!.deposit_status,
      lister: row.taker_role === 'buyer' ? 'seller' : 'buyer',
    };
  }

  async adminChat(orderId: string, before: string | undefined, limit: number) {
    const order = await this.repository.findOrder(orderId);
    if (!order) throw AppError.notFound();
    const page = await this.chat.orderMessages(order.conversation_id!, before, limit);
    return {
      items: page.items.map((message) => ({ ...this.toChatMessage(message, order, null), agentName: message.agentName })),
      nextBefore: page.nextBefore,
    };
  }

  async adminChatImage(orderId: string, messageId: string) {
    const order = await this.repository.findOrder(orderId);
    if (!order) throw AppError.notFound();
    return this.chat.orderImage(order.conversation_id!, messageId);
  }

  async adminEvidence(orderId: string, uploadId: string) {
    const image = await this.repository.evidenceOfOrder(orderId, uploadId);
    if (!image) throw AppError.notFound();
    return image;
  }

  /** The arbiter writes to both parties (audited: the ruling's record). */
  async adminChatSend(actor: OperatorActor, orderId: string, body: z.output<typeof adminOtcChatSendRequest>) {
    const order = await this.repository.findOrder(orderId);
    if (!order) throw AppError.notFound();
    const message = await this.db.transaction(async (tx) => {
      const posted = await this.chat.postOrderMessage(
        tx,
        order.conversation_id!,
        { operatorId: actor.operatorId, ownerMemberId: order.seller_member_id },
        { text: body.text, imageBase64: body.imageBase64 },
      );
      for (const memberId of [order.buyer_member_id, order.seller_member_id]) {
        await this.memberEvents.publish(tx, memberId, {
          kind: 'otc.chat',
          orderId: order.id,
          messageId: posted.id,
          preview: preview(body.text),
        });
      }
      await this.operatorEvents.publishOtc(tx, { kind: 'otc.chat', orderId: order.id, messageId: posted.id });
      await this.recordAudit(tx, actor, 'otc.chat_message', 'otc_order', order.id, null, {
        messageId: posted.id,
        text: body.text ?? null,
        image: body.imageBase64 !== undefined,
      });
      return posted;
    });
    return { ...this.toChatMessage(message, order, null), agentName: message.agentName };
  }

  /**
   * A ruling on an appealed order: release to the buyer or return to the seller, optionally forfeit
   * the lister's deposit (only when the ruling goes against the lister) and suspend a party. The
   * order must still be under appeal: the ruling and any timer are serialised on the listing row
   * and the order's conditional change, and a timer never matches an appealed order.
   */
  async rule(actor: OperatorActor, orderId: string, body: z.output<typeof adminOtcRuleRequest>): Promise<AdminOtcOrderDetail> {
    const order = await this.repository.findOrder(orderId);
    if (!order) throw AppError.notFound();
    // An operator who replaced a party's credentials may be the one holding them: during the pause
    // after that reset, another arbiter rules (decision 051).
    const { securityCoolingOffHours } = await this.settings.get('withdraw');
    if (securityCoolingOffHours > 0) {
      const since = new Date(this.now().getTime() - securityCoolingOffHours * 3_600_000);
      const parties = [order.buyer_member_id, order.seller_member_id];
      if (await this.repository.operatorResetAny(actor.operatorId, parties, since))
        throw AppError.conflict('otc.arbiter_reset_party', { hours: securityCoolingOffHours });
    }
    await this.db.transaction(async (tx) => {
      await this.repository.lockListing(tx, order.listing_id);
      await this.lockOrderAccounts(tx, order);
      const now = this.now();
      const listing = (await this.repository.findListing(order.listing_id, tx))!;
      const listerRole: OtcRole = order.taker_role === 'buyer' ? 'seller' : 'buyer';
      const offender: OtcRole = body.ruling === 'release_to_buyer' ? 'seller' : 'buyer';
      if (body.forfeitDeposit) {
        if (offender !== listerRole) throw AppError.conflict('otc.forfeit_not_lister');
        if (listing.deposit_status !== 'held') throw AppError.conflict('otc.no_deposit');
      }
      const changed = await this.repository.transition(
        tx,
        orderId,
        ['appeal'],
        body.ruling === 'release_to_buyer'
          ? { state: 'completed', completedAt: now, now }
          : { state: 'cancelled', cancelledAt: now, cancelReason: 'ruling', now },
      );
      if (!changed) throw AppError.conflict('otc.not_under_appeal');
      await this.announce(tx, changed, 'ruled');
      await this.repository.ruleAppeals(tx, orderId, { ruling: body.ruling, note: body.note, operatorId: actor.operatorId, now });
      await this.repository.insertStep(tx, {
        scope: 'order',
        listingId: order.listing_id,
        orderId,
        step: 'ruled',
        actor: 'operator',
        note: `${body.ruling}: ${body.note}`,
        now,
      });
      if (body.forfeitDeposit) {
        await this.ledger.captureHold(
          tx,
          { referenceType: DEPOSIT_HOLD, referenceId: listing.id },
          { platformCode: 'fees', asset: 'USDT' },
          { from: 'otc_release', to: 'otc_release' },
        );
        await this.repository.updateListing(tx, listing.id, { depositStatus: 'forfeited', now });
        await this.repository.insertStep(tx, {
          scope: 'listing',
          listingId: listing.id,
          orderId,
          step: 'deposit_forfeited',
          actor: 'operator',
          note: body.note,
          now,
        });
      }
      let suspended: { memberId: string; until: string } | null = null;
      if (body.suspend) {
        const memberId = body.suspend.role === 'buyer' ? order.buyer_member_id : order.seller_member_id;
        const until = new Date(now.getTime() + body.suspend.days * 86_400_000);
        await this.repository.insertSuspension(tx, {
          memberId,
          until,
          reason: body.note,
          orderId,
          operatorId: actor.operatorId,
          now,
        });
        suspended = { memberId, until: until.toISOString() };
      }
      if (body.ruling === 'release_to_buyer') await this.finishCompleted(tx, changed, 'operator', body.note, now);
      else await this.finishCancelled(tx, changed, 'operator', 'ruling', now);
      if (body.forfeitDeposit) {
        // A lister found at fault loses the deposit that stood behind the listing: with nothing behind
        // it, the listing leaves the market (what is left returns as on a take-down).
        const after = (await this.repository.findListing(listing.id, tx))!;
        if (after.state === 'matching') await this.closeListing(tx, after, 'operator', body.note);
      }
      const appeals = await this.repository.appealsOf([orderId], tx);
      const opening = appeals.find((appeal) => appeal.opening);
      if (opening)
        await this.operatorEvents.publishOtc(tx, { kind: 'otc.appeal', orderId, appealId: opening.id, status: 'ruled' });
      await this.recordAudit(
        tx,
        actor,
        'otc.appeal_ruled',
        'otc_order',
        orderId,
        { state: order.state, escrow: order.escrow, depositStatus: listing.deposit_status },
        { ruling: body.ruling, note: body.note, forfeitDeposit: body.forfeitDeposit, suspended },
      );
    });
    return this.adminOrder(orderId);
  }

  async appealQueue(status: 'open' | 'ruled', page: number, pageSize: number) {
    const { rows, total, open } = await this.repository.appealQueue(status, pageSize, (page - 1) * pageSize);
    const orders = await Promise.all(rows.map((row) => this.repository.findOrder(row.order_id)));
    const views = await this.adminOrderViews(orders.filter((row): row is OrderRow => row !== null));
    const byId = new Map(views.map((view) => [view.id, view]));
    const items: AdminOtcAppealItem[] = rows.map((row) => ({
      ...toAppeal(row),
      order: byId.get(row.order_id)!,
      ruledBy: row.ruled_by_name,
    }));
    return { items, total, page, pageSize, openTotal: open };
  }

  async suspensions() {
    const rows = await this.repository.activeSuspensions(this.now());
    return {
      items: rows.map((row) => ({
        memberId: row.member_id,
        email: row.email,
        nickname: row.nickname,
        until: iso(row.until),
        reason: row.reason,
        orderNo: row.order_no,
        createdAt: iso(row.created_at),
      })),
    };
  }

  async liftSuspension(actor: OperatorActor, memberId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const lifted = await this.repository.liftSuspensions(tx, memberId, actor.operatorId, this.now());
      if (lifted === 0) throw AppError.notFound();
      await this.recordAudit(tx, actor, 'otc.suspension_lifted', 'member', memberId, { suspended: true }, { suspended: false });
    });
  }

  /** Escrow against the books (see the repository): empty when every hold matches its listing or order. */
  escrowProblems() {
    return this.repository.escrowProblems();
  }
}

function toAppeal(row: AppealRow): OtcAppeal {
  return {
    id: row.id,
    by: row.by_role,
    reason: row.reason,
    description: row.description,
    imageIds: row.image_ids,
    status: row.status,
    ruling: row.ruling,
    rulingNote: row.ruling_note,
    createdAt: iso(row.created_at),
    ruledAt: isoOrNull(row.ruled_at),
  };
}

/** What waits on the viewer: the buyer must pay, the seller must release, an appeal waits for the other side's evidence. */
function needsAction(order: OtcOrder): boolean {
  if (order.state === 'pending_payment') return order.myRole === 'buyer';
  if (order.state === 'paid') return order.myRole === 'seller';
  if (order.state === 'appeal') return order.actions.appeal;
  return false;
}
