import { randomUUID } from 'node:crypto';
import { keccak256 } from 'viem';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import {
  BusinessCode,
  money,
  toChecksumAddress,
  type AdminWithdrawal,
  type HotWallet,
  type Holiday,
  type Money,
  type Network,
  type WithdrawIndex,
  type WithdrawMethod,
  type WithdrawMethodType,
  type WithdrawSettings,
  type Withdrawal,
  type WithdrawalStatus,
  type addBankMethodRequest,
  type addCryptoMethodRequest,
  type addWalletMethodRequest,
  type withdrawRequest,
} from '@custos/contract';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { fingerprint } from '../../lib/fingerprint.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { EvmHotWallet } from '../chain/evm-hot-wallet.js';
import type { Clock } from '../../lib/clock.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { MemberRow } from '../members/member.repository.js';
import type { SecurityService } from '../security/security.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { AdminWithdrawalRow, MethodRow, WithdrawRepository, WithdrawalRow } from './withdraw.repository.js';
import { coolingOffParams, coolingOffUntil } from './cooling-off.js';
import { localTime, windowState, type WindowRule } from './withdraw-window.js';

const HOLD_REFERENCE = 'withdrawal';
/** A withdrawal this large (USDT) gets a risk hint in the console. */
const LARGE_AMOUNT = money.parseMoney('10000');
const NEW_ACCOUNT_MS = 7 * 86_400_000;
const WEEKDAY_NAMES = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** wechat and alipay: payment details for OTC only, never a withdrawal target (product.md §5). */
function isPaymentOnly(type: WithdrawMethodType): boolean {
  return type === 'wechat' || type === 'alipay';
}

function maskCard(cardNumber: string): string {
  return `**** ${cardNumber.slice(-4)}`;
}

function toMethod(row: MethodRow): WithdrawMethod {
  return {
    id: row.id,
    type: row.type,
    network: row.network,
    address: row.address,
    bankName: row.bank_name,
    cardNumberMasked: row.card_number ? maskCard(row.card_number) : null,
    holderName: row.holder_name,
    branch: row.branch,
    account: row.account,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** What a record shows as the destination: the address, the bank with the masked card, or the wallet account. */
function destinationOf(method: MethodRow): string {
  if (method.type === 'crypto') return method.address!;
  if (method.type === 'bank') return `${method.bank_name} ${maskCard(method.card_number!)}`;
  return `${method.type} ${method.account}`;
}

function toWithdrawal(row: WithdrawalRow): Withdrawal {
  return {
    id: row.id,
    status: row.status,
    methodType: row.method_type,
    network: row.network,
    destination: row.destination,
    amount: row.amount,
    fee: row.fee,
    received: row.received,
    txHash: row.tx_hash,
    payoutReference: row.payout_reference,
    reason: row.reason,
    createdAt: new Date(row.created_at).toISOString(),
    decidedAt: iso(row.decided_at),
    completedAt: iso(row.completed_at),
  };
}

/** viem's errors carry the node's own words in `details`; the first line alone is often generic. */
function describeChainError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const details = (error as Error & { details?: unknown }).details;
  const first = error.message.split('\n')[0]!;
  return (typeof details === 'string' && details ? `${first} ${details}` : first).slice(0, 300);
}

/**
 * One stored spelling per transaction hash, so `0x…`, bare and upper-case forms of one hash compare
 * equal: BEP20 as `0x` + lower-case hex, TRC20 (TronGrid's own form) as bare lower-case hex. Anything
 * that is not a 32-byte hex hash is kept as typed, in lower case.
 */
export function normaliseTxHash(network: Network, reference: string): string {
  const text = reference.trim().toLowerCase();
  if (!/^(0x)?[0-9a-f]{64}$/.test(text)) return text;
  const bare = text.startsWith('0x') ? text.slice(2) : text;
  return network === 'BEP20' ? `0x${bare}` : bare;
}

/** fee = fixed + amount × rate, rounded up (product.md §4: fees round up). */
export function withdrawFee(amount: Money, settings: Pick<WithdrawSettings, 'feeFixed' | 'feeRate'>): Money {
  return money.add(money.parseMoney(settings.feeFixed), money.multiply(amount, settings.feeRate, 'up'));
}

export interface WithdrawServiceOptions {
  timeZone: string;
  clock: Clock;
  /** Hot wallets that pay approved withdrawals automatically, per network. */
  hotWallets: Partial<Record<Network, EvmHotWallet>>;
  payoutConfirmations: number;
  logger: FastifyBaseLogger;
  /** Tells the member live when their withdrawal is approved, paid or refunded (decision 022). */
  events?: MemberEventPublisher;
}

/**
 * Withdrawals (docs/decisions/010-withdrawals.md): saved methods; a request holds the amount at once
 * (available → held) after every check; an operator approves (BEP20: the hot wallet signs, stores
 * and broadcasts the payout; others are paid outside and marked paid) or rejects (hold released);
 * success captures the hold into the withdrawals and fees platform accounts.
 */
export class WithdrawService {
  constructor(
    private readonly db: Db,
    private readonly repository: WithdrawRepository,
    private readonly ledger: LedgerService,
    private readonly security: SecurityService,
    private readonly settings: SettingsService,
    private readonly audit: AuditRepository,
    private readonly options: WithdrawServiceOptions,
  ) {}

  // ── Methods ────────────────────────────────────────────────────────────────────────────────────

  async methods(context: MemberSessionContext): Promise<WithdrawMethod[]> {
    return (await this.repository.listMethods(context.member.id)).map(toMethod);
  }

  private async requireMethodType(type: WithdrawMethodType): Promise<void> {
    const settings = await this.settings.get('withdraw');
    if (!settings.methods[type]) throw AppError.conflict('withdraw.method_disabled');
  }

  private async saveMethod(
    context: MemberSessionContext,
    method: Omit<MethodRow, 'id' | 'created_at' | 'member_id'> & { identity: string },
  ): Promise<WithdrawMethod> {
    // wechat and alipay are payment details for OTC only (product.md §5, decision 031): always saved,
    // never withdrawn to; the operator's switches govern withdrawal targets only.
    if (!isPaymentOnly(method.type)) await this.requireMethodType(method.type);
    const row = await this.repository.insertMethod({ ...method, member_id: context.member.id });
    if (!row) throw AppError.conflict('withdraw.duplicate_method');
    return toMethod(row);
  }

  addCrypto(context: MemberSessionContext, body: z.infer<typeof addCryptoMethodRequest>): Promise<WithdrawMethod> {
    // BEP20 addresses are kept in their checksum form, so the same address typed in lower case is a duplicate.
    const address = body.network === 'BEP20' ? toChecksumAddress(body.address) : body.address;
    return this.saveMethod(context, {
      type: 'crypto',
      network: body.network,
      address,
      bank_name: null,
      card_number: null,
      holder_name: null,
      branch: null,
      account: null,
      identity: `crypto:${body.network}:${address}`,
    });
  }

  addBank(context: MemberSessionContext, body: z.infer<typeof addBankMethodRequest>): Promise<WithdrawMethod> {
    return this.saveMethod(context, {
      type: 'bank',
      network: null,
      address: null,
      bank_name: body.bankName,
      card_number: body.cardNumber,
      holder_name: body.holderName,
      branch: body.branch,
      account: null,
      identity: `bank:${body.cardNumber}`,
    });
  }

  addWallet(
    context: MemberSessionContext,
    type: 'wechat' | 'alipay',
    body: z.infer<typeof addWalletMethodRequest>,
  ): Promise<WithdrawMethod> {
    return this.saveMethod(context, {
      type,
      network: null,
      address: null,
      bank_name: null,
      card_number: null,
      holder_name: body.holderName,
      branch: null,
      account: body.account,
      identity: `${type}:${body.account.toLowerCase()}`,
    });
  }

  async deleteMethod(context: MemberSessionContext, methodId: string): Promise<void> {
    const method = await this.repository.findMethod(this.db, context.member.id, methodId);
    if (!method) throw AppError.notFound();
    if (await this.repository.hasOpenWithdrawal(methodId)) throw AppError.conflict('withdraw.method_in_use');
    await this.repository.deleteMethod(context.member.id, methodId);
  }

  // ── The window ─────────────────────────────────────────────────────────────────────────────────

  private rule(settings: WithdrawSettings): WindowRule {
    return {
      openDays: settings.openDays,
      openTime: settings.openTime,
      closeTime: settings.closeTime,
      timeZone: this.options.timeZone,
    };
  }

  private async window(settings: WithdrawSettings) {
    const now = this.options.clock.now();
    const today = localTime(now, this.options.timeZone).date;
    const holidays = await this.repository.holidaysFrom(today, 62);
    return { state: windowState(this.rule(settings), now, holidays), today };
  }

  private outsideWindowError(settings: WithdrawSettings, holiday: string | null, date: string): AppError {
    if (holiday !== null) return AppError.conflict('withdraw.holiday', { date, note: holiday });
    const times = { open: settings.openTime, close: settings.closeTime, timeZone: this.options.timeZone };
    const days = [...settings.openDays].sort();
    if (days.join(',') === '1,2,3,4,5') return AppError.conflict('withdraw.outside_window_weekdays', times);
    return AppError.conflict('withdraw.outside_window', { ...times, days: days.map((day) => WEEKDAY_NAMES[day]).join(', ') });
  }

  private coolingOffUntil(member: Pick<MemberRow, 'securityResetAt'>, settings: WithdrawSettings): Date | null {
    return coolingOffUntil(member.securityResetAt, settings.securityCoolingOffHours, this.options.clock.now());
  }

  // ── Member calls ───────────────────────────────────────────────────────────────────────────────

  async index(context: MemberSessionContext): Promise<WithdrawIndex> {
    const settings = await this.settings.get('withdraw');
    const { state, today } = await this.window(settings);
    const accountId = context.account.id;
    const balances = await this.ledger.balancesOf([accountId]);
    return {
      balance: money.formatMoney(balances.get(`${accountId}:USDT:available`) ?? money.ZERO),
      settings,
      timeZone: this.options.timeZone,
      openNow: state.open,
      nextOpenAt: state.open ? null : iso(state.nextOpenAt),
      holidayToday: state.open ? null : state.holiday,
      usedToday: money.formatMoney(money.parseMoney(await this.repository.usedOnDay(this.db, accountId, today))),
      methods: (await this.methods(context)).filter((method) => !isPaymentOnly(method.type)),
      hasTradePassword: context.member.tradePasswordHash !== null,
      requiresAuthenticator: context.member.totpSecret !== null,
      isMainAccount: context.account.kind === 'main',
      coolingOffUntil: iso(this.coolingOffUntil(context.member, settings)),
    };
  }

  async withdraw(context: MemberSessionContext, request: z.infer<typeof withdrawRequest>): Promise<Withdrawal> {
    const accountId = context.account.id;
    if (context.account.kind !== 'main') throw AppError.conflict('withdraw.main_account_only');
    const requestHash = fingerprint({ methodId: request.methodId, amount: request.amount });
    const replay = (row: WithdrawalRow) => {
      if (row.request_hash !== requestHash) throw AppError.conflict('ledger.idempotency_mismatch');
      return toWithdrawal(row);
    };
    await this.security.verifyTradePassword(context.member, request.tradePassword, context.sessionId);
    const existing = await this.repository.findByClientKey(this.db, accountId, request.idempotencyKey);
    if (existing) return replay(existing);

    const settings = await this.settings.get('withdraw');
    if (!settings.enabled) throw AppError.conflict('withdraw.disabled');
    const coolingOff = this.coolingOffUntil(context.member, settings);
    if (coolingOff) {
      throw AppError.conflict(
        'withdraw.cooling_off',
        coolingOffParams(coolingOff, settings.securityCoolingOffHours, this.options.timeZone),
      );
    }
    const method = await this.repository.findMethod(this.db, context.member.id, request.methodId);
    if (!method) {
      const anyMethod = (await this.repository.listMethods(context.member.id)).length > 0;
      if (!anyMethod) throw new AppError(BusinessCode.NO_WITHDRAW_METHOD, 'withdraw.no_method');
      throw AppError.notFound();
    }
    if (isPaymentOnly(method.type)) throw AppError.conflict('withdraw.payment_only');
    if (!settings.methods[method.type]) throw AppError.conflict('withdraw.method_disabled');
    const { state, today } = await this.window(settings);
    if (!state.open) throw this.outsideWindowError(settings, state.holiday, state.date);

    const amount = money.parseMoney(request.amount);
    if (money.compare(amount, money.parseMoney(settings.minimum)) < 0) {
      throw AppError.conflict('withdraw.below_minimum', { minimum: settings.minimum });
    }
    if (money.compare(amount, money.parseMoney(settings.maximum)) > 0) {
      throw AppError.conflict('withdraw.above_maximum', { maximum: settings.maximum });
    }
    const fee = withdrawFee(amount, settings);
    if (money.compare(fee, amount) >= 0) throw AppError.conflict('withdraw.fee_exceeds_amount', { fee: money.formatMoney(fee) });
    // The authenticator code is checked last among the member's inputs: a wrong one is counted.
    await this.security.requireAuthenticatorCode(context.member, request.googleCode);

    return this.db.transaction(async (tx) => {
      // One lock per account serialises its requests: the daily total and the balance are read under it.
      await this.ledger.lockBalances(tx, [{ ownerAccountId: accountId, asset: 'USDT', purpose: 'available' }]);
      const winner = await this.repository.findByClientKey(tx, accountId, request.idempotencyKey);
      if (winner) return replay(winner);
      const used = money.parseMoney(await this.repository.usedOnDay(tx, accountId, today));
      const limit = money.parseMoney(settings.dailyLimit);
      if (money.compare(money.add(used, amount), limit) > 0) {
        throw AppError.conflict('withdraw.daily_limit', {
          limit: settings.dailyLimit,
          remaining: money.formatMoney(money.max(money.ZERO, money.subtract(limit, used))),
        });
      }
      const id = randomUUID();
      const row = await this.repository.insert(tx, {
        id,
        memberId: context.member.id,
        accountId,
        method,
        destination: destinationOf(method),
        amount: money.formatMoney(amount),
        fee: money.formatMoney(fee),
        received: money.formatMoney(money.subtract(amount, fee)),
        clientKey: request.idempotencyKey,
        requestHash,
        platformDay: today,
      });
      await this.ledger.hold(tx, {
        ownerAccountId: accountId,
        asset: 'USDT',
        amount,
        referenceType: HOLD_REFERENCE,
        referenceId: id,
        recordType: 'withdraw',
      });
      return toWithdrawal(row);
    });
  }

  async list(context: MemberSessionContext, status: WithdrawalStatus | undefined, page: number, pageSize: number) {
    const { rows, total } = await this.repository.listForMember(context.account.id, status, pageSize, (page - 1) * pageSize);
    return { items: rows.map(toWithdrawal), total, page, pageSize };
  }

  async detail(context: MemberSessionContext, id: string): Promise<Withdrawal> {
    const row = await this.repository.find(this.db, id);
    // Another member's withdrawal is simply not found.
    if (!row || row.account_id !== context.account.id) throw AppError.notFound();
    return toWithdrawal(row);
  }

  // ── Console ────────────────────────────────────────────────────────────────────────────────────

  private toAdmin(row: AdminWithdrawalRow): AdminWithdrawal {
    const hints: string[] = [];
    if (row.previous_paid_count === 0) hints.push('first_withdrawal');
    if (new Date(row.created_at).getTime() - new Date(row.member_created_at).getTime() < NEW_ACCOUNT_MS)
      hints.push('new_account');
    if (row.address_shared) hints.push('address_shared');
    if (money.compare(money.parseMoney(row.amount), LARGE_AMOUNT) >= 0) hints.push('large_amount');
    if (row.recent_deposit) hints.push('recent_deposit');
    return {
      ...toWithdrawal(row),
      memberId: row.member_id,
      memberEmail: row.member_email,
      accountId: row.account_id,
      kycStatus: row.kyc_status,
      previousPaidCount: row.previous_paid_count,
      previousPaidTotal: money.formatMoney(money.parseMoney(row.previous_paid_total)),
      riskHints: hints,
      payoutError: row.payout_error,
      decidedBy: row.decided_by_name,
    };
  }

  async adminList(filter: { status?: WithdrawalStatus; query?: string }, page: number, pageSize: number) {
    const { rows, total } = await this.repository.listAdmin(filter, pageSize, (page - 1) * pageSize);
    return { items: rows.map((row) => this.toAdmin(row)), total, page, pageSize };
  }

  private async adminOne(id: string): Promise<AdminWithdrawal> {
    const { rows } = await this.repository.listAdmin({ id }, 1, 0);
    if (!rows[0]) throw AppError.notFound();
    return this.toAdmin(rows[0]);
  }

  private async recordAudit(
    tx: Tx,
    operatorId: string,
    action: string,
    before: WithdrawalRow,
    after: Record<string, unknown>,
    origin: RequestOrigin,
  ): Promise<void> {
    await this.audit.record(
      {
        operatorId,
        action,
        targetType: 'withdrawal',
        targetId: before.id,
        before: { status: before.status, amount: before.amount, destination: before.destination },
        after,
        ip: origin.ip,
        requestId: origin.requestId,
      },
      tx,
    );
  }

  /** Locks the withdrawal and checks its state before an operator action. */
  private async lockIn(tx: Tx, id: string, states: readonly WithdrawalStatus[]): Promise<WithdrawalRow> {
    const row = await this.repository.lock(tx, id);
    if (!row) throw AppError.notFound();
    if (!states.includes(row.status)) throw AppError.conflict('withdraw.wrong_state');
    return row;
  }

  private autoPayoutWallet(row: WithdrawalRow): EvmHotWallet | undefined {
    return row.method_type === 'crypto' && row.network ? this.options.hotWallets[row.network] : undefined;
  }

  async approve(operatorId: string, id: string, origin: RequestOrigin): Promise<AdminWithdrawal> {
    const signed = await this.db.transaction(async (tx) => {
      const row = await this.lockIn(tx, id, ['pending']);
      const wallet = this.autoPayoutWallet(row);
      const payout = wallet ? await this.signPayout(tx, wallet, row) : null;
      await this.repository.update(tx, id, {
        status: 'processing',
        decidedBy: operatorId,
        decided: true,
        ...(payout ? { txHash: payout.txHash, payoutRawTx: payout.rawTx, payoutNonce: payout.nonce } : {}),
      });
      await this.recordAudit(
        tx,
        operatorId,
        'withdrawal.approved',
        row,
        { status: 'processing', txHash: payout?.txHash ?? null },
        origin,
      );
      await this.notify(tx, row, 'withdrawal.approved');
      return payout ? { wallet, rawTx: payout.rawTx } : null;
    });
    // Broadcast after the signed transaction is stored: a crash here loses nothing, a retry resends it.
    if (signed?.wallet) await this.broadcast(id, signed.wallet, signed.rawTx);
    return this.adminOne(id);
  }

  /** Signs the USDT payout with the next nonce; payouts are serialised per network by an advisory lock. */
  private async signPayout(tx: Tx, wallet: EvmHotWallet, row: WithdrawalRow) {
    await this.repository.lockPayouts(tx, row.network!);
    // The lowest nonce not yet mined and not held by another payout: an abandoned (refunded) payout's
    // nonce is taken again, so no gap can keep later payouts waiting in the pool.
    const reserved = await this.repository.reservedPayoutNonces(tx, row.network!);
    reserved.delete(row.payout_nonce === null ? -1n : BigInt(row.payout_nonce));
    let nonce = BigInt(await wallet.minedNonce());
    while (reserved.has(nonce)) nonce += 1n;
    const decimals = await wallet.tokenDecimals();
    const scale = decimals - money.MONEY_PLACES;
    const received = money.parseMoney(row.received);
    const units = scale >= 0 ? received * 10n ** BigInt(scale) : received / 10n ** BigInt(-scale);
    return wallet.signTransfer(row.destination as `0x${string}`, units, nonce);
  }

  private async broadcast(id: string, wallet: EvmHotWallet, rawTx: `0x${string}`): Promise<void> {
    try {
      await wallet.broadcast(rawTx);
      await this.repository.update(this.db, id, { payoutAttempt: true, payoutError: null });
    } catch (error) {
      const message = describeChainError(error);
      this.options.logger.warn({ withdrawalId: id, err: error }, 'withdrawal payout broadcast failed');
      // Only a payout still waiting on this very transaction fails: a slow answer must not undo a
      // success the tracker recorded meanwhile.
      await this.repository.markPayoutFailed(this.db, id, keccak256(rawTx), message);
    }
  }

  /**
   * What the chain says of a signed payout, judged only on evidence at one pinned block with
   * `payoutConfirmations` confirmations (decision 010): the wallet's nonce count at that block
   * number, and, when the nonce is used there, the very transaction that used it (found by block
   * number, so a node behind a load balancer cannot answer from another view). `settling`: the nonce
   * is used at the head but not yet at that depth (a payout or cancel mined too recently to judge).
   */
  private async payoutFate(
    wallet: EvmHotWallet,
    row: WithdrawalRow,
  ): Promise<'paid' | 'reverted' | 'void' | 'open' | 'settling'> {
    const nonce = BigInt(row.payout_nonce ?? '0');
    const pinned = (await wallet.headBlock()) - BigInt(this.options.payoutConfirmations) + 1n;
    if (pinned < 0n || BigInt(await wallet.nonceAt(pinned)) <= nonce) {
      return BigInt(await wallet.minedNonce()) > nonce ? 'settling' : 'open';
    }
    const usedBy = await wallet.nonceUser(nonce, pinned);
    if (usedBy.toLowerCase() !== row.tx_hash?.toLowerCase()) return 'void';
    // Ours used the nonce at or before the pinned block: its receipt must be there too. A node that
    // answers without it (or with a later block) is out of step: judge nothing now.
    const seen = await wallet.receipt(usedBy);
    if (!seen || seen.receipt.blockNumber > pinned) {
      throw AppError.conflict('withdraw.payout_cancelling', { nonce: nonce.toString() });
    }
    return seen.receipt.status === 'success' ? 'paid' : 'reverted';
  }

  async reject(operatorId: string, id: string, reason: string, origin: RequestOrigin): Promise<AdminWithdrawal> {
    await this.db.transaction(async (tx) => {
      const row = await this.lockIn(tx, id, ['pending']);
      await this.ledger.releaseHold(tx, { referenceType: HOLD_REFERENCE, referenceId: id }, 'withdraw_refund');
      await this.repository.update(tx, id, { status: 'refunded', reason, decidedBy: operatorId, decided: true, completed: true });
      await this.recordAudit(tx, operatorId, 'withdrawal.rejected', row, { status: 'refunded', reason }, origin);
      await this.notify(tx, row, 'withdrawal.refunded');
    });
    return this.adminOne(id);
  }

  /** Paid outside (TRC20, bank, wallets, or BEP20 without a hot wallet): the reference proves it. */
  async markPaid(operatorId: string, id: string, reference: string, origin: RequestOrigin): Promise<AdminWithdrawal> {
    await this.db.transaction(async (tx) => {
      const row = await this.lockIn(tx, id, ['processing']);
      if (row.payout_raw_tx) throw AppError.conflict('withdraw.wrong_state');
      await this.complete(tx, row);
      const isChain = row.method_type === 'crypto';
      if (isChain) {
        // One on-chain transfer pays one withdrawal: a hash already used is a mistake (or a double claim).
        // The unique index decides between concurrent calls; the read first answers the common case.
        const txHash = normaliseTxHash(row.network!, reference);
        if (await this.repository.txHashUsed(tx, row.network!, txHash, id)) throw AppError.conflict('withdraw.tx_hash_used');
        if (!(await this.repository.setPaidTxHash(tx, id, txHash))) throw AppError.conflict('withdraw.tx_hash_used');
      } else {
        await this.repository.update(tx, id, { payoutReference: reference });
      }
      await this.recordAudit(tx, operatorId, 'withdrawal.marked_paid', row, { status: 'success', reference }, origin);
    });
    return this.adminOne(id);
  }

  /** A failed BEP20 payout: send the stored transaction again, or a new one if its nonce was spent by another. */
  async retry(operatorId: string, id: string, origin: RequestOrigin): Promise<AdminWithdrawal> {
    const work = await this.db.transaction(async (tx) => {
      const row = await this.lockIn(tx, id, ['failed']);
      const wallet = this.autoPayoutWallet(row);
      if (!wallet || !row.payout_raw_tx) throw AppError.conflict('withdraw.payout_unavailable', { network: row.network ?? '' });
      let rawTx = row.payout_raw_tx as `0x${string}`;
      const fate = await this.payoutFate(wallet, row);
      // Mined and paid: the tracker completes it; nothing may be sent again.
      if (fate === 'paid') throw AppError.conflict('withdraw.wrong_state');
      // Its nonce was used too recently to know by what: wait for the depth.
      if (fate === 'settling') throw AppError.conflict('withdraw.payout_cancelling', { nonce: row.payout_nonce ?? '0' });
      let signed: { txHash: string; nonce: string } | null = null;
      if (fate === 'void' || fate === 'reverted') {
        // The stored transaction can never pay (its nonce is used, by another or by its own revert): sign anew.
        const payout = await this.signPayout(tx, wallet, row);
        rawTx = payout.rawTx;
        signed = { txHash: payout.txHash, nonce: payout.nonce.toString() };
        await this.repository.update(tx, id, { txHash: payout.txHash, payoutRawTx: payout.rawTx, payoutNonce: payout.nonce });
      }
      await this.repository.update(tx, id, { status: 'processing', payoutError: null });
      await this.recordAudit(
        tx,
        operatorId,
        'withdrawal.payout_retried',
        row,
        { status: 'processing', ...(signed ? { newTxHash: signed.txHash, newNonce: signed.nonce } : {}) },
        origin,
      );
      return { wallet, rawTx };
    });
    await this.broadcast(id, work.wallet, work.rawTx);
    return this.adminOne(id);
  }

  /**
   * Gives up a failed payout; the hold goes back to the member. A signed payout is given up only once
   * it can never pay: it reverted, or its nonce was used by another transaction. While its nonce is
   * open (anyone holding the signed transaction could still get it mined), a cancel transaction is
   * sent first to use the nonce up; the refund goes through once that is mined.
   */
  async refund(
    operatorId: string,
    id: string,
    reason: string,
    origin: RequestOrigin,
    afterCancel = false,
  ): Promise<AdminWithdrawal> {
    const cancel = await this.db.transaction(async (tx) => {
      const row = await this.lockIn(tx, id, ['failed', 'processing']);
      const wallet = this.autoPayoutWallet(row);
      if (row.payout_raw_tx) {
        if (row.status !== 'failed' || !wallet) throw AppError.conflict('withdraw.wrong_state');
        const fate = await this.payoutFate(wallet, row);
        // Paid after all: the tracker completes it.
        if (fate === 'paid') throw AppError.conflict('withdraw.wrong_state');
        // A cancel (or the payout) mined too recently: refund only at the payout confirmation depth.
        if (fate === 'settling') throw AppError.conflict('withdraw.payout_cancelling', { nonce: row.payout_nonce ?? '0' });
        if (fate === 'open') {
          const nonce = row.payout_nonce ?? '0';
          if (afterCancel) throw AppError.conflict('withdraw.payout_cancelling', { nonce });
          const signed = await wallet.signCancel(BigInt(nonce), row.payout_raw_tx as `0x${string}`);
          await this.recordAudit(
            tx,
            operatorId,
            'withdrawal.payout_cancel_signed',
            row,
            { status: row.status, nonce, cancelTxHash: signed.txHash },
            origin,
          );
          return { wallet, rawTx: signed.rawTx };
        }
      }
      await this.ledger.releaseHold(tx, { referenceType: HOLD_REFERENCE, referenceId: id }, 'withdraw_refund');
      // The payout's nonce is used up (or it never had one): it holds back no later payout.
      await this.repository.update(tx, id, { status: 'refunded', reason, completed: true, payoutNonce: null });
      await this.recordAudit(tx, operatorId, 'withdrawal.refunded', row, { status: 'refunded', reason }, origin);
      await this.notify(tx, row, 'withdrawal.refunded');
      return null;
    });
    if (cancel) {
      try {
        await cancel.wallet.broadcast(cancel.rawTx);
      } catch (error) {
        throw AppError.conflict('withdraw.payout_cancel_failed', { error: describeChainError(error) });
      }
      // Where the cancel is mined at once the refund completes now; otherwise the operator refunds again.
      return this.refund(operatorId, id, reason, origin, true);
    }
    return this.adminOne(id);
  }

  /** Success: the held amount leaves the member (what arrives to `withdrawals`, the fee to `fees`). */
  private async complete(tx: Tx, row: WithdrawalRow): Promise<void> {
    await this.ledger.captureHoldSplit(
      tx,
      { referenceType: HOLD_REFERENCE, referenceId: row.id },
      [
        {
          account: { platformCode: 'withdrawals', asset: 'USDT' },
          amount: money.parseMoney(row.received),
          recordType: 'withdraw',
        },
        { account: { platformCode: 'fees', asset: 'USDT' }, amount: money.parseMoney(row.fee), recordType: 'withdraw_fee' },
      ],
      'withdraw',
    );
    await this.repository.update(tx, row.id, { status: 'success', completed: true });
    await this.notify(tx, row, 'withdrawal.paid');
  }

  private async notify(
    tx: Tx,
    row: WithdrawalRow,
    kind: 'withdrawal.approved' | 'withdrawal.paid' | 'withdrawal.refunded',
  ): Promise<void> {
    await this.options.events?.publish(tx, row.member_id, { kind, withdrawalId: row.id, amount: row.amount });
  }

  /**
   * Follows signed BEP20 payouts: success once mined with enough confirmations (also for one marked
   * failed whose transaction was mined after all); failed (the hold stays, an operator retries or
   * refunds) if it reverted. A processing payout the node does not know (lost from its pool, or never
   * sent because the process stopped after storing it) is sent again: the same signed transaction
   * cannot pay twice. Safe to run anywhere, any time.
   */
  async trackPayouts(): Promise<{ completed: number; failed: number }> {
    let completed = 0;
    let failed = 0;
    for (const [network, wallet] of Object.entries(this.options.hotWallets) as [Network, EvmHotWallet][]) {
      for (const row of await this.repository.signedPayouts(network)) {
        const hash = row.tx_hash as `0x${string}`;
        const seen = await wallet.receipt(hash);
        if (!seen) {
          if (row.status === 'processing' && row.payout_raw_tx && !(await wallet.known(hash))) {
            await this.broadcast(row.id, wallet, row.payout_raw_tx as `0x${string}`);
          }
          continue;
        }
        if (seen.receipt.status === 'reverted') {
          if (row.status !== 'processing') continue;
          await this.db.transaction(async (tx) => {
            const locked = await this.repository.lock(tx, row.id);
            if (locked?.status !== 'processing' || locked.tx_hash !== row.tx_hash) return;
            await this.repository.update(tx, row.id, { status: 'failed', payoutError: 'the payout transaction reverted' });
            failed += 1;
          });
          continue;
        }
        if (seen.confirmations < BigInt(this.options.payoutConfirmations)) continue;
        await this.db.transaction(async (tx) => {
          const locked = await this.repository.lock(tx, row.id);
          if ((locked?.status !== 'processing' && locked?.status !== 'failed') || locked.tx_hash !== row.tx_hash) return;
          await this.complete(tx, locked);
          await this.repository.update(tx, row.id, { payoutError: null });
          completed += 1;
        });
      }
    }
    return { completed, failed };
  }

  // ── Settings, holidays, hot wallets ────────────────────────────────────────────────────────────

  getSettings(): Promise<WithdrawSettings> {
    return this.settings.get('withdraw');
  }

  async updateSettings(operatorId: string, next: WithdrawSettings, origin: RequestOrigin): Promise<WithdrawSettings> {
    const before = await this.settings.get('withdraw');
    await this.db.transaction(async (tx) => {
      await this.settings.set('withdraw', next, operatorId, tx);
      await this.audit.record(
        {
          operatorId,
          action: 'withdraw.settings_updated',
          targetType: 'setting',
          targetId: 'withdraw',
          before,
          after: next,
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return this.settings.get('withdraw');
  }

  async holidays(): Promise<Holiday[]> {
    // From a month back, so a holiday just passed is still visible.
    const from = localTime(new Date(this.options.clock.now().getTime() - 31 * 86_400_000), this.options.timeZone).date;
    return (await this.repository.listHolidays(from)).map((row) => ({ date: row.day, note: row.note }));
  }

  async addHoliday(operatorId: string, holiday: { date: string; note: string }, origin: RequestOrigin): Promise<Holiday[]> {
    await this.db.transaction(async (tx) => {
      await this.repository.addHoliday(holiday.date, holiday.note, operatorId, tx);
      await this.audit.record(
        {
          operatorId,
          action: 'withdraw.holiday_added',
          targetType: 'holiday',
          targetId: holiday.date,
          before: null,
          after: holiday,
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return this.holidays();
  }

  async deleteHoliday(operatorId: string, date: string, origin: RequestOrigin): Promise<Holiday[]> {
    await this.db.transaction(async (tx) => {
      if (!(await this.repository.deleteHoliday(date, tx))) throw AppError.notFound();
      await this.audit.record(
        {
          operatorId,
          action: 'withdraw.holiday_deleted',
          targetType: 'holiday',
          targetId: date,
          before: { date },
          after: null,
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return this.holidays();
  }

  async hotWallets(): Promise<HotWallet[]> {
    return Promise.all(
      (['BEP20', 'TRC20'] as const).map(async (network): Promise<HotWallet> => {
        const wallet = this.options.hotWallets[network];
        if (!wallet) return { network, configured: false, address: null, usdtBalance: null, nativeBalance: null, error: null };
        try {
          const balances = await wallet.balances();
          return {
            network,
            configured: true,
            address: wallet.address,
            usdtBalance: balances.usdt,
            nativeBalance: balances.native,
            error: null,
          };
        } catch (error) {
          const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
          return { network, configured: true, address: wallet.address, usdtBalance: null, nativeBalance: null, error: message };
        }
      }),
    );
  }
}
