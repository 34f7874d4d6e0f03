import {
  money,
  type Asset,
  type BalanceLogItem,
  type FuelTicketLogItem,
  type LedgerPurpose,
  type Money,
  type RecordType,
  type UserAssets,
} from '@custos/contract';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { SettingsService } from '../settings/settings.service.js';

/** What the Assets tab and the Home total show: the account in use's balances, valued in USDT. */
export class AssetsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly settings: SettingsService,
  ) {}

  async assets(context: MemberSessionContext): Promise<UserAssets> {
    const accountId = context.account.id;
    const [balances, exchange] = await Promise.all([this.ledger.balancesOf([accountId]), this.settings.get('exchange')]);
    const of = (asset: Asset, purpose: string): Money => balances.get(`${accountId}:${asset}:${purpose}`) ?? money.ZERO;
    const usdt = money.add(of('USDT', 'available'), of('USDT', 'held'));
    const rab = money.add(of('RAB', 'available'), of('RAB', 'held'));
    // RAB is valued at the operator's price, rounded down: a valuation never overstates.
    const cash = money.add(usdt, money.multiply(rab, exchange.rabPriceUsdt, 'down'));
    const custody = of('USDT', 'custody');
    const pair = (asset: Asset) => ({
      available: money.formatMoney(of(asset, 'available')),
      held: money.formatMoney(of(asset, 'held')),
    });
    return {
      totalUsdt: money.formatMoney(money.add(cash, custody)),
      cashUsdt: money.formatMoney(cash),
      custodyUsdt: money.formatMoney(custody),
      rabPriceUsdt: exchange.rabPriceUsdt,
      USDT: pair('USDT'),
      RAB: pair('RAB'),
      FUEL: pair('FUEL'),
      TICKET: { available: money.formatMoney(of('TICKET', 'available')), used: money.formatMoney(of('TICKET', 'used')) },
    };
  }

  async balanceLog(
    context: MemberSessionContext,
    query: { asset?: Asset | undefined; type?: RecordType | undefined; page: number; pageSize: number },
  ): Promise<{ items: BalanceLogItem[]; total: number; page: number; pageSize: number }> {
    const { rows, total } = await this.ledger.log(
      context.account.id,
      { asset: query.asset, type: query.type },
      { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
    );
    return {
      items: rows.map((row) => ({
        id: row.id,
        asset: row.asset,
        type: row.record_type,
        amount: row.amount,
        balanceAfter: row.balance_after,
        createdAt: new Date(row.created_at).toISOString(),
        referenceType: row.reference_type,
        referenceId: row.reference_id,
      })),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /** withdraw_record7: the account's fuel and ticket movements, available and used, newest first. */
  async fuelTicketLog(
    context: MemberSessionContext,
    query: { asset?: 'FUEL' | 'TICKET' | undefined; page: number; pageSize: number },
  ): Promise<{ items: FuelTicketLogItem[]; total: number; page: number; pageSize: number }> {
    const { rows, total } = await this.ledger.fuelTicketLog(context.account.id, query.asset, {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return {
      items: rows.map((row) => ({
        id: row.id,
        asset: row.asset as 'FUEL' | 'TICKET',
        purpose: row.purpose as LedgerPurpose,
        type: row.record_type,
        amount: row.amount,
        balanceAfter: row.balance_after,
        createdAt: new Date(row.created_at).toISOString(),
      })),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }
}
