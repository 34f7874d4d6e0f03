// The OTC module's shared pieces (decision 031): constants, pure helpers and the wiring every part takes.
import { randomInt } from 'node:crypto';
import {
  money,
  type Money,
  type OtcAppeal,
  type OtcOrder,
  type OtcOrderState,
  type OtcPaymentDetail,
  type OtcReputation,
  type OtcRole,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import type { RequestOrigin } from '../../http/origin.js';
import { localTime } from '../../lib/platform-time.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { Clock } from '../../lib/clock.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { OperatorEventsService } from '../notifications/operator-events.service.js';
import type { RateLimitRule, RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { SecurityService } from '../security/security.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { SupportChatService } from '../support-chat/support-chat.service.js';
import type { AppealRow, ListingRow, OrderRow, PaymentMethodRow, ReputationRow } from './otc.rows.js';
import type { OtcArbitrationRepository } from './otc-arbitration.repository.js';
import type { OtcRepository } from './otc.repository.js';

export const LISTING_HOLD = 'otc_listing';
export const ORDER_HOLD = 'otc_order';
export const DEPOSIT_HOLD = 'otc_deposit';
export const OPEN_STATES: readonly OtcOrderState[] = ['pending_payment', 'paid', 'appeal'];
/** Orders the timers handle per run and kind; the next run takes the rest. */
export const TIMER_BATCH = 200;
const PREVIEW_LENGTH = 60;

/** Order chat messages a member may send (shared by every instance through the database). */
export const OTC_CHAT_PER_MINUTE: RateLimitRule = { name: 'chat:otc:minute', maxAttempts: 20, windowS: 60 };

export interface OtcServiceOptions {
  timeZone: string;
  clock: Clock;
}

/** What every part of the OTC module is built from (the container's wiring, passed on whole). */
export interface OtcDeps {
  db: Db;
  repository: OtcRepository;
  arbitration: OtcArbitrationRepository;
  ledger: LedgerService;
  security: SecurityService;
  settings: SettingsService;
  audit: AuditRepository;
  memberEvents: MemberEventPublisher;
  operatorEvents: OperatorEventsService;
  chat: SupportChatService;
  rateLimits: RateLimitService;
  options: OtcServiceOptions;
}

export interface OperatorActor {
  operatorId: string;
  origin: RequestOrigin;
}

export const iso = (value: Date | string) => new Date(value).toISOString();
export const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));
export const parse = (value: string) => money.parseMoney(value);
export const format = (value: Money) => money.formatMoney(value);

/** The platform day (YYYY-MM-DD) of a moment in the platform's time zone. */
export function platformDay(now: Date, timeZone: string): string {
  return localTime(now, timeZone).date;
}

/** The next platform midnight after `now`. */
export function nextPlatformMidnight(now: Date, timeZone: string): Date {
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

export function newNumber(prefix: string, now: Date, timeZone: string): string {
  const digits = Array.from({ length: 10 }, () => randomInt(10)).join('');
  return `${prefix}${platformDay(now, timeZone).replace(/-/g, '')}${digits}`;
}

function maskCard(cardNumber: string): string {
  return `**** ${cardNumber.slice(-4)}`;
}

export function toPaymentDetail(row: PaymentMethodRow, full: boolean): OtcPaymentDetail {
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

export function toReputation(row: ReputationRow | undefined): OtcReputation {
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

export function preview(text: string | undefined): string {
  if (!text) return '';
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}

export function roleOf(order: OrderRow, memberId: string): OtcRole | null {
  if (order.buyer_member_id === memberId) return 'buyer';
  if (order.seller_member_id === memberId) return 'seller';
  return null;
}

export function listingHoldRef(listing: Pick<ListingRow, 'id' | 'escrow_seq'>) {
  return { referenceType: LISTING_HOLD, referenceId: `${listing.id}:${listing.escrow_seq}` };
}

export function orderHoldRef(orderId: string) {
  return { referenceType: ORDER_HOLD, referenceId: orderId };
}

export function toAppeal(row: AppealRow): OtcAppeal {
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
export function needsAction(order: OtcOrder): boolean {
  if (order.state === 'pending_payment') return order.myRole === 'buyer';
  if (order.state === 'paid') return order.myRole === 'seller';
  if (order.state === 'appeal') return order.actions.appeal;
  return false;
}
