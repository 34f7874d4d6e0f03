import { sql, type SQL } from 'drizzle-orm';
import type { AirdropSelection, AirdropStatus } from '@custos/contract';
import { queryRows, runStatement, type Db, type Tx } from '../../db/client.js';
import { levelOf, type LevelRule } from '../team/team.repository.js';

export interface CampaignRow {
  id: string;
  name: string;
  amount: string;
  selection: AirdropSelection;
  min_level: number | null;
  day: string;
  arrive_at: Date | string;
  status: AirdropStatus;
  recipients: number;
  paid: number;
  total: string;
  created_by: string;
  created_at: Date | string;
  cancelled_at: Date | string | null;
  arrived_at: Date | string | null;
}

export interface RecipientRow {
  member_id: string;
  account_id: string;
  email: string;
  nickname: string;
}

/** Who a campaign gives to: members at or above a level under a day's rules, or named main accounts. */
export type Audience = { kind: 'level'; rules: LevelRule[]; minLevel: number } | { kind: 'list'; accountIds: string[] };

const CAMPAIGN_COLUMNS = sql.raw(`c.id, c.name, c.amount::text as amount, c.selection, c.min_level, c.day::text as day,
  c.arrive_at, c.status, c.recipients, c.total::text as total, o.username as created_by, c.created_at, c.cancelled_at,
  c.arrived_at, (select count(*)::int from airdrop_recipients r where r.campaign_id = c.id and r.entry_id is not null) as paid`);

/** The main accounts (team nodes) an audience names, in join order. */
function chosen(audience: Audience): SQL {
  return audience.kind === 'level'
    ? sql`select n.account_id, n.seq from team_nodes n where ${levelOf(audience.rules)} >= ${audience.minLevel}`
    : sql`select n.account_id, n.seq from team_nodes n
          where n.account_id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(audience.accountIds)}::jsonb))`;
}

/** Airdrop campaigns and their recipients: the only SQL of the airdrops module. */
export class AirdropsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Each given e-mail or member id with the member's main account, or null when no member has it
   * (e-mails compared without case).
   */
  async resolve(tokens: string[]): Promise<{ token: string; member_id: string | null; account_id: string | null }[]> {
    return queryRows(
      this.db,
      sql`select t.token, m.id as member_id, a.id as account_id
          from jsonb_array_elements_text(${JSON.stringify(tokens)}::jsonb) with ordinality as t(token, ord)
            left join members m on lower(m.email) = lower(t.token)
              or m.id::text = lower(t.token)
            left join accounts a on a.member_id = m.id and a.kind = 'main'
          order by t.ord`,
    );
  }

  /** How many an audience holds, and its first members (join order). */
  async preview(audience: Audience, limit: number): Promise<{ count: number; sample: RecipientRow[] }> {
    const [count] = await queryRows<{ n: number }>(this.db, sql`select count(*)::int as n from (${chosen(audience)}) x`);
    const sample = await queryRows<RecipientRow>(
      this.db,
      sql`select m.id as member_id, a.id as account_id, m.email, a.nickname from (${chosen(audience)}) x
            join accounts a on a.id = x.account_id join members m on m.id = a.member_id
          order by x.seq limit ${limit}`,
    );
    return { count: count?.n ?? 0, sample };
  }

  /**
   * Creates the campaign with its recipients fixed in one statement (the audience read once); null
   * when the audience is empty (nothing is written).
   */
  async create(
    tx: Tx,
    campaign: {
      name: string;
      amount: string;
      selection: AirdropSelection;
      minLevel: number | null;
      day: string;
      arriveAt: Date;
      createdBy: string;
    },
    audience: Audience,
  ): Promise<{ id: string; recipients: number; total: string } | null> {
    const rows = await queryRows<{ id: string; recipients: number; total: string }>(
      tx,
      sql`with chosen as (${chosen(audience)}),
          campaign as (
            insert into airdrop_campaigns (name, amount, selection, min_level, day, arrive_at, recipients, total, created_by)
            select ${campaign.name}, ${campaign.amount}::numeric, ${campaign.selection}, ${campaign.minLevel}::int,
              ${campaign.day}::date, ${campaign.arriveAt.toISOString()}::timestamptz, count(*), count(*) * ${campaign.amount}::numeric,
              ${campaign.createdBy}::uuid
            from chosen having count(*) > 0
            returning id, recipients, total
          ),
          -- Runs once whether read or not (a data-modifying WITH); the foreign key is checked at the statement's end.
          recipients as (
            insert into airdrop_recipients (campaign_id, account_id) select campaign.id, chosen.account_id from campaign, chosen
            returning 1
          )
          select id, recipients, total::text as total from campaign`,
    );
    return rows[0] ?? null;
  }

  async campaign(id: string, db: Db | Tx = this.db): Promise<CampaignRow | null> {
    const rows = await queryRows<CampaignRow>(
      db,
      sql`select ${CAMPAIGN_COLUMNS} from airdrop_campaigns c join operators o on o.id = c.created_by where c.id = ${id}::uuid`,
    );
    return rows[0] ?? null;
  }

  async campaigns(limit: number, offset: number): Promise<{ rows: CampaignRow[]; total: number }> {
    const rows = await queryRows<CampaignRow>(
      this.db,
      sql`select ${CAMPAIGN_COLUMNS} from airdrop_campaigns c join operators o on o.id = c.created_by
          order by c.created_at desc, c.id limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ n: number }>(this.db, sql`select count(*)::int as n from airdrop_campaigns`);
    return { rows, total: count?.n ?? 0 };
  }

  async recipients(
    id: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: (RecipientRow & { paid: boolean })[]; total: number }> {
    const rows = await queryRows<RecipientRow & { paid: boolean }>(
      this.db,
      sql`select m.id as member_id, a.id as account_id, m.email, a.nickname, r.entry_id is not null as paid
          from airdrop_recipients r join accounts a on a.id = r.account_id join members m on m.id = a.member_id
          where r.campaign_id = ${id}::uuid order by m.email limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ n: number }>(
      this.db,
      sql`select count(*)::int as n from airdrop_recipients where campaign_id = ${id}::uuid`,
    );
    return { rows, total: count?.n ?? 0 };
  }

  /** The campaign's state under a row lock: cancel and the start of arrival take turns on it. */
  async lock(
    tx: Tx,
    id: string,
  ): Promise<{ status: AirdropStatus; arrive_at: Date | string; name: string; amount: string } | null> {
    const rows = await queryRows<{ status: AirdropStatus; arrive_at: Date | string; name: string; amount: string }>(
      tx,
      sql`select status, arrive_at, name, amount::text as amount from airdrop_campaigns where id = ${id}::uuid for update`,
    );
    return rows[0] ?? null;
  }

  async setStatus(tx: Tx, id: string, status: AirdropStatus, operatorId?: string): Promise<void> {
    await runStatement(
      tx,
      status === 'cancelled'
        ? sql`update airdrop_campaigns set status = 'cancelled', cancelled_by = ${operatorId ?? null}::uuid, cancelled_at = now()
              where id = ${id}::uuid`
        : sql`update airdrop_campaigns set status = ${status} where id = ${id}::uuid`,
    );
  }

  /** Campaigns whose time has come and that are not fully paid (a crashed run left some `arriving`). */
  async due(now: Date): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select id from airdrop_campaigns where status in ('scheduled', 'arriving') and arrive_at <= ${now.toISOString()}::timestamptz
          order by arrive_at, id`,
    );
    return rows.map((row) => row.id);
  }

  /**
   * Up to `limit` recipients not paid yet, locked; those another run is paying right now are skipped
   * (it pays them), so concurrent runs share the work instead of queueing on it.
   */
  async unpaid(tx: Tx, id: string, limit: number): Promise<{ account_id: string; member_id: string }[]> {
    return queryRows(
      tx,
      sql`select r.account_id, a.member_id from airdrop_recipients r join accounts a on a.id = r.account_id
          where r.campaign_id = ${id}::uuid and r.entry_id is null
          order by r.account_id limit ${limit} for update of r skip locked`,
    );
  }

  async markPaid(tx: Tx, id: string, accountId: string, entryId: string): Promise<void> {
    await runStatement(
      tx,
      sql`update airdrop_recipients set entry_id = ${entryId}::bigint, paid_at = now()
          where campaign_id = ${id}::uuid and account_id = ${accountId}::uuid and entry_id is null`,
    );
  }

  /** Marks the campaign arrived once every recipient is paid; false while some are not. */
  async finish(tx: Tx, id: string): Promise<boolean> {
    const changed = await runStatement(
      tx,
      sql`update airdrop_campaigns set status = 'arrived', arrived_at = now()
          where id = ${id}::uuid and status = 'arriving'
            and not exists (select 1 from airdrop_recipients r where r.campaign_id = ${id}::uuid and r.entry_id is null)`,
    );
    return changed > 0;
  }

  /** The income log's airdrop lines of one account (cancelled campaigns never arrive and are not shown). */
  static incomeOf(accountId: string): SQL {
    return sql`select 'airdrop'::text as type, c.asset, c.amount,
                 case when r.entry_id is null then 'to_arrive' else 'arrived' end as state, c.name as source, c.day
               from airdrop_recipients r join airdrop_campaigns c on c.id = r.campaign_id
               where r.account_id = ${accountId}::uuid and c.status <> 'cancelled'`;
  }
}
