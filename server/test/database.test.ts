import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { RateLimitRepository } from '../src/modules/rate-limit/rate-limit.repository.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/test-database.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase({ migrate: false });
});
afterAll(async () => {
  await t.dispose();
});

describe(`migrations on ${testDatabaseKind()}`, () => {
  it('create every table, and running them again changes nothing', async () => {
    await t.database.migrate();
    const tables = async () =>
      (
        await queryRows<{ table_name: string }>(
          t.database.db,
          sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
        )
      ).map((row) => row.table_name);
    const first = await tables();
    expect(first).toEqual([
      'account_login_guards',
      'account_transfers',
      'accounts',
      'airdrop_campaigns',
      'airdrop_recipients',
      'app_release_packages',
      'app_releases',
      'article_reads',
      'article_translations',
      'articles',
      'audit_log',
      'banner_translations',
      'banners',
      'chain_cursors',
      'chain_deposits',
      'chain_sweeps',
      'chat_canned_replies',
      'chat_conversations',
      'chat_messages',
      'chat_participants',
      'content_images',
      'contract_manual_ticks',
      'contract_orders',
      'contract_products',
      'contract_quote_proposals',
      'contract_settlements_due',
      'contract_ticks',
      'contract_unseen_orders',
      'contract_watch',
      'deposit_addresses',
      'dividend_allocations',
      'dividend_pools',
      'document_versions',
      'documents',
      'exchange_orders',
      'feedback',
      'feedback_images',
      'help_article_translations',
      'help_articles',
      'help_categories',
      'help_category_translations',
      'hosting_accruals',
      'hosting_expiries',
      'hosting_order_events',
      'hosting_orders',
      'hosting_plans',
      'identity_verifications',
      'journal_entries',
      'ledger_accounts',
      'ledger_adjustments',
      'ledger_holds',
      'machine_outputs',
      'machine_products',
      'mail_outbox',
      'market_feed_state',
      'market_prices',
      'market_products',
      'member_events',
      'member_machines',
      'member_sessions',
      'members',
      'notice_translations',
      'notices',
      'operator_events',
      'operator_sessions',
      'operators',
      'otc_appeals',
      'otc_listings',
      'otc_orders',
      'otc_steps',
      'otc_suspensions',
      'platform_settings',
      'postings',
      'rate_limit_buckets',
      'settlement_runs',
      'team_closure',
      'team_day_levels',
      'team_earning_days',
      'team_earning_items',
      'team_earnings',
      'team_level_versions',
      'team_levels',
      'team_nodes',
      'team_performance_days',
      'team_promotions',
      'uploads',
      'verification_codes',
      'withdraw_holidays',
      'withdraw_methods',
      'withdrawals',
    ]);
    await t.database.migrate();
    expect(await tables()).toEqual(first);
  });

  it('enforce constraints in the database itself', async () => {
    // drizzle wraps the database's error: the cause names the check that refused (23514 check_violation).
    await expect(
      t.database.db.execute(sql`insert into operators (username, password_hash, role) values ('x', 'h', 'owner')`),
    ).rejects.toMatchObject({ cause: { code: '23514', constraint: 'operators_role_check' } });
    await expect(
      t.database.db.execute(sql`insert into rate_limit_buckets (key, window_started_at, attempts) values ('k', now(), -1)`),
    ).rejects.toMatchObject({ cause: { code: '23514', constraint: 'rate_limit_buckets_attempts_check' } });
  });
});

describe('rate-limit buckets', () => {
  it('count attempts in a window and start again after it', async () => {
    const repository = new RateLimitRepository(t.database.db);
    expect((await repository.hit('test:a', 60)).attempts).toBe(1);
    const second = await repository.hit('test:a', 60);
    expect(second.attempts).toBe(2);
    expect(second.resetInS).toBeGreaterThan(0);
    expect(second.resetInS).toBeLessThanOrEqual(60);
    await t.database.db.execute(
      sql`update rate_limit_buckets set window_started_at = now() - interval '2 minutes' where key = 'test:a'`,
    );
    expect((await repository.hit('test:a', 60)).attempts).toBe(1);
  });

  it('count concurrent attempts exactly', async () => {
    // PGlite runs one transaction at a time: only this test's PostgreSQL run proves the race.
    const repository = new RateLimitRepository(t.database.db);
    const results = await Promise.all(Array.from({ length: 20 }, () => repository.hit('test:concurrent', 60)));
    expect(results.map((result) => result.attempts).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
  });
});
