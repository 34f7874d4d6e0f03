import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  money,
  otcFee,
  otcPriceBand,
  type OtcInfo,
  type OtcListingDetail,
  type OtcListingState,
  type OtcMarketListing,
  type OtcSide,
  type otcPostListingRequest,
} from '@custos/contract';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../http/app-error.js';
import { fingerprint } from '../../lib/fingerprint.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import { coolingOffUntil } from '../withdraw/cooling-off.js';
import type { ListingRow } from './otc.rows.js';
import {
  DEPOSIT_HOLD,
  isoOrNull,
  parse,
  format,
  nextPlatformMidnight,
  newNumber,
  toPaymentDetail,
  toReputation,
  listingHoldRef,
  type OtcDeps,
} from './otc.shared.js';
import { OtcUnit } from './otc.unit.js';
import type { OtcEscrow } from './otc.escrow.js';
import type { OtcViews } from './otc.views.js';

/** A member's listings (decision 031): the market, posting (escrow and deposit held) and taking one down. */
export class OtcListingsService extends OtcUnit {
  constructor(
    deps: OtcDeps,
    private readonly escrow: OtcEscrow,
    private readonly views: OtcViews,
  ) {
    super(deps);
  }

  async info(context: MemberSessionContext): Promise<OtcInfo> {
    const settings = await this.settings.get('otc');
    const now = this.now();
    const memberId = context.member.id;
    const [approved, suspendedUntil, cancels, balances, reputations, methods, pending, withdrawSettings] = await Promise.all([
      this.repository.realNameApproved(memberId),
      this.arbitration.suspendedUntil(memberId, now),
      this.repository.takerCancels(this.db, memberId, this.today(now)),
      this.ledger.balancesOf([context.account.id]),
      this.repository.reputations([memberId], now),
      this.repository.paymentMethods(memberId),
      this.views.pendingOrders(memberId),
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
      items: rows.map((row) => this.views.toMarketListing(row, reputations, context.member.id)),
      total,
      page,
      pageSize,
      guidePrice: settings.guidePrice,
      fiatCurrency: settings.fiatCurrency,
    };
  }

  async listingInfo(context: MemberSessionContext, id: string) {
    const row = await this.repository.findListing(id);
    if (!row) throw AppError.notFound();
    const reputations = await this.repository.reputations([row.member_id], this.now());
    const mine = row.member_id === context.member.id;
    // Another member sees a listing only while it is on the market.
    if (!mine && row.state !== 'matching') throw AppError.notFound();
    return {
      listing: this.views.toMarketListing(row, reputations, context.member.id),
      mine: mine ? await this.views.listingDetail(row, reputations) : null,
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
    return { items: await Promise.all(rows.map((row) => this.views.toMyListing(row, reputations))), total, page, pageSize };
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
      return this.views.listingDetail(row, await this.repository.reputations([memberId], this.now()));
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
      await this.escrow.closeListing(tx, listing, 'lister', null);
    });
    const row = (await this.repository.findListing(listingId))!;
    return this.views.listingDetail(row, await this.repository.reputations([row.member_id], this.now()));
  }
}
