import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALWAYS_OPEN_SESSIONS,
  CONTRACT_MANUAL_QUOTE_DEFAULTS,
  type ContractManualQuoteSettings,
  type ContractOrder,
  type ContractProductSettingsInput,
  type ContractQuoteProposal,
  type ManualContractQuoteResult,
} from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { trackBalances } from './support/balances.js';
import { consoleCall, contractProduct, memberCall } from './support/contracts.js';
import { operatorToken } from './support/members.js';
import { seedTraders, type Trader } from './support/otc.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { testDatabaseKind } from './support/test-database.js';

// Issue 31, finding 3 (decision 050): one operator's manual quote must not pay any amount. A quote
// applies at once only within the band of a recent independent price (feed, replay, or a quote a
// second operator approved) while no feed is live; anything else waits for a second operator; a
// target reached by a manual tick fills at the target; every such tick and close names its operators.

let t: TestApp;
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
let alice: string;
let bob: string;
let carol: string;
const ids: Record<string, string> = {};
let traders: Trader[];
let nextTrader = 0;
let nextSymbol = 0;

/** A product around 50 000 USD, one unit a lot (a 0.10-lot order is a tenth of a coin). */
const COIN_SETTINGS: ContractProductSettingsInput = {
  digits: 2,
  contractSize: '1',
  leverages: [10],
  minLots: '0.01',
  lotStep: '0.01',
  maxLots: '10.00',
  spreadMarkupPoints: 0,
  sessions: ALWAYS_OPEN_SESSIONS,
  swapEnabled: false,
  swapLongPct: '0',
  swapShortPct: '0',
  tradingEnabled: true,
};

function trader(): Trader {
  const next = traders[nextTrader++];
  if (!next) throw new Error('out of traders');
  return next;
}

async function coinProduct(): Promise<string> {
  nextSymbol += 1;
  return contractProduct(t, alice, `MQ${String(nextSymbol).padStart(2, '0')}/USD`, COIN_SETTINGS);
}

/** A feed tick (the quotes ticker's bid/ask), walked before this resolves. */
async function feedTick(productId: string, bid: string, ask: string): Promise<void> {
  await t.services.contracts.watcher.ingestTicks([{ productId, bid, ask }], 'feed');
  await t.services.contracts.watcher.idle();
}

function quote(operator: string, productId: string, bid: string, ask: string) {
  return consoleCall<ManualContractQuoteResult>(t, 'POST', `/api/admin/contracts/products/${productId}/quote`, operator, {
    bid,
    ask,
  });
}
function decide(operator: string, id: string, decision: 'approve' | 'reject', note?: string) {
  return consoleCall<ContractQuoteProposal>(
    t,
    'POST',
    `/api/admin/contracts/quote-proposals/${id}/${decision}`,
    operator,
    note === undefined ? {} : { note },
  );
}
function open(who: Trader, body: Record<string, unknown>) {
  return memberCall<ContractOrder>(t, 'POST', '/api/contracts/open', who.token, { idempotencyKey: randomUUID(), ...body });
}

async function orderRow(id: string) {
  const [row] = await queryRows<{ state: string; close_reason: string | null; close_price: string | null; pnl: string | null }>(
    t.testDatabase.database.db,
    sql`select state, close_reason, close_price::text as close_price, pnl::text as pnl from contract_orders where id = ${id}::uuid`,
  );
  return row!;
}
async function manualTicks(productId: string) {
  return queryRows<{ bid: string; ask: string; entered_by: string; approved_by: string | null }>(
    t.testDatabase.database.db,
    sql`select t.bid::text as bid, t.ask::text as ask, m.entered_by::text as entered_by, m.approved_by::text as approved_by
        from contract_ticks t left join contract_manual_ticks m on m.tick_id = t.id
        where t.product_id = ${productId}::uuid and t.source = 'manual' order by t.id`,
  );
}
async function auditRows(action: string, targetId: string) {
  return queryRows<{ operator_id: string; after: Record<string, unknown> }>(
    t.testDatabase.database.db,
    sql`select operator_id::text as operator_id, after from audit_log where action = ${action} and target_id = ${targetId}
        order by created_at, id`,
  );
}
async function proposalCount(): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as count from contract_quote_proposals`,
  );
  return row!.count;
}
async function tickCount(): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as count from contract_ticks`,
  );
  return row!.count;
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  alice = await operatorToken(t, 'manual-quote-alice', 'finance');
  bob = await operatorToken(t, 'manual-quote-bob', 'finance');
  carol = await operatorToken(t, 'manual-quote-carol', 'support');
  const rows = await queryRows<{ id: string; username: string }>(
    t.testDatabase.database.db,
    sql`select id::text as id, username from operators where username like 'manual-quote-%'`,
  );
  for (const row of rows) ids[row.username.replace('manual-quote-', '')] = row.id;
  traders = await seedTraders(t.testDatabase.database.db, t.services.ledger, 'manual-quote', 8, '10000');
}, 120_000);
afterAll(async () => {
  await t.services.contracts.watcher.stop();
  expect(await t.services.contracts.admin.marginProblems()).toEqual([]);
  await t.close();
});

describe(`one operator's manual quote on ${testDatabaseKind()}`, () => {
  it('of 5 000 000 on a ~50 000 product moves no member’s money: it waits for a second operator, whose approval fills the take-profit at its target', async () => {
    const product = await coinProduct();
    await feedTick(product, '50000.00', '50001.00');
    const member = trader();
    const opened = await open(member, { productId: product, side: 'buy', lots: '0.10', leverage: 10, takeProfit: '51000.00' });
    expect(opened.code).toBe(200);
    // 0.10 × 1 × 50 001 ÷ 10.
    expect(opened.data.margin).toBe('500.0100');
    const balances = await trackBalances(t, { member: member.accountId });

    // The feed has gone quiet for 130 s (stale for trading, still a reference for 600 s).
    nowMs += 130_000;
    const proposed = await quote(alice, product, '5000000.00', '5000001.00');
    expect(proposed.code).toBe(200);
    expect(proposed.data).toMatchObject({
      id: product,
      outcome: 'proposed',
      tickId: null,
      proposal: {
        bid: '5000000.00',
        ask: '5000001.00',
        status: 'pending',
        why: 'out_of_band',
        referenceMid: '50000.5',
        deviationBps: 989_991,
        proposedBy: 'manual-quote-alice',
      },
    });
    await t.services.contracts.watcher.idle();
    expect(await orderRow(opened.data.id)).toMatchObject({ state: 'open' });
    expect(await manualTicks(product)).toEqual([]);
    await balances.expectChanges({});
    expect((await auditRows('contracts.quote_proposed', proposed.data.proposal!.id))[0]).toMatchObject({
      operator_id: ids.alice,
      after: { productId: product, bid: '5000000.00', ask: '5000001.00', why: 'out_of_band', status: 'pending' },
    });
    const pending = await consoleCall<{ items: ContractQuoteProposal[] }>(
      t,
      'GET',
      '/api/admin/contracts/quote-proposals?status=pending',
      bob,
    );
    expect(pending.data.items.map((item) => item.id)).toContain(proposed.data.proposal!.id);

    // A second operator approves: the tick applies, and the take-profit fills at 51 000, not 5 000 000.
    const approved = await decide(bob, proposed.data.proposal!.id, 'approve', 'checked with the desk');
    expect(approved.code).toBe(200);
    expect(approved.data).toMatchObject({
      status: 'approved',
      decidedBy: 'manual-quote-bob',
      decisionNote: 'checked with the desk',
    });
    expect(approved.data.tickId).not.toBeNull();
    await t.services.contracts.watcher.idle();
    expect(await orderRow(opened.data.id)).toEqual({
      state: 'closed',
      close_reason: 'take_profit',
      close_price: '51000.00000000',
      pnl: '99.9000',
    });
    // (51 000 − 50 001) × 0.10 = 99.9 from the book, and the margin back.
    await balances.expectChanges({
      'member:USDT:held': '-500.0100',
      'member:USDT:available': '+599.9100',
      'platform:contracts_book:USDT': '-99.9000',
    });
    expect(await manualTicks(product)).toEqual([
      { bid: '5000000.00000000', ask: '5000001.00000000', entered_by: ids.alice, approved_by: ids.bob },
    ]);
    expect(await auditRows('contracts.quote_approved', proposed.data.proposal!.id)).toMatchObject([
      {
        operator_id: ids.bob,
        after: {
          status: 'approved',
          tickId: approved.data.tickId,
          proposedBy: ids.alice,
          approvedBy: ids.bob,
        },
      },
    ]);
    expect(await auditRows('contracts.manual_tick_close', opened.data.id)).toMatchObject([
      {
        operator_id: ids.alice,
        after: {
          tickId: approved.data.tickId,
          enteredBy: ids.alice,
          approvedBy: ids.bob,
          reason: 'take_profit',
          pnl: '99.9000',
        },
      },
    ]);
  });

  it('cannot be approved or rejected by its proposer, nor by an operator without contracts.manage', async () => {
    const product = await coinProduct();
    await feedTick(product, '50000.00', '50001.00');
    // The feed is live: even a quote at its price waits for a second operator.
    const proposed = await quote(alice, product, '50000.00', '50001.00');
    expect(proposed.data).toMatchObject({ outcome: 'proposed', proposal: { why: 'feed_live', deviationBps: 1 } });
    const id = proposed.data.proposal!.id;
    const own = await decide(alice, id, 'approve');
    expect(own).toMatchObject({ code: 403, message: 'Another operator must approve a quote you proposed' });
    expect((await decide(alice, id, 'reject')).code).toBe(403);
    expect((await decide(carol, id, 'approve')).code).toBe(403);
    await t.services.contracts.watcher.idle();
    expect(await manualTicks(product)).toEqual([]);
    const listed = await consoleCall<{ items: ContractQuoteProposal[] }>(t, 'GET', '/api/admin/contracts/quote-proposals', carol);
    expect(listed.data.items.find((item) => item.id === id)).toMatchObject({ status: 'pending', decidedBy: null });

    // Another operator rejects it: nothing applies, and the rejection is audited with both operators.
    const rejected = await decide(bob, id, 'reject', 'off market');
    expect(rejected.data).toMatchObject({ status: 'rejected', decidedBy: 'manual-quote-bob', tickId: null });
    expect(await manualTicks(product)).toEqual([]);
    expect(await auditRows('contracts.quote_rejected', id)).toMatchObject([
      {
        operator_id: ids.bob,
        after: { proposedBy: ids.alice, rejectedBy: ids.bob, note: 'off market' },
      },
    ]);
    // A decided proposal stays decided.
    expect(await decide(bob, id, 'approve')).toMatchObject({
      code: 409,
      message: 'This quote proposal has already been decided',
    });
  });

  it('inside the band of a recent feed price applies at once; targets it reaches fill at the target, each close audited', async () => {
    const product = await coinProduct();
    await feedTick(product, '50000.00', '50001.00');
    const buyer = trader();
    const seller = trader();
    const buy = await open(buyer, { productId: product, side: 'buy', lots: '0.10', leverage: 10, takeProfit: '50050.00' });
    const sell = await open(seller, { productId: product, side: 'sell', lots: '0.10', leverage: 10, stopLoss: '50080.00' });
    expect([buy.code, sell.code]).toEqual([200, 200]);
    expect([buy.data.margin, sell.data.margin]).toEqual(['500.0100', '500.0000']);
    const balances = await trackBalances(t, { buyer: buyer.accountId, seller: seller.accountId });

    nowMs += 130_000;
    // 21 bps from the feed's mid (50 000.50): within the default 50.
    const applied = await quote(alice, product, '50100.00', '50101.00');
    expect(applied.data).toMatchObject({ outcome: 'applied', proposal: null });
    await t.services.contracts.watcher.idle();
    // The buy's take-profit at 50 050 (not the tick's 50 100): (50 050 − 50 001) × 0.10 = 4.9.
    expect(await orderRow(buy.data.id)).toEqual({
      state: 'closed',
      close_reason: 'take_profit',
      close_price: '50050.00000000',
      pnl: '4.9000',
    });
    // The sell's stop-loss at 50 080 (not the tick's ask of 50 101): (50 000 − 50 080) × 0.10 = −8.
    expect(await orderRow(sell.data.id)).toEqual({
      state: 'closed',
      close_reason: 'stop_loss',
      close_price: '50080.00000000',
      pnl: '-8.0000',
    });
    await balances.expectChanges({
      'buyer:USDT:held': '-500.0100',
      'buyer:USDT:available': '+504.9100',
      'seller:USDT:held': '-500.0000',
      'seller:USDT:available': '+492.0000',
      'platform:contracts_book:USDT': '+3.1000',
    });
    expect(await manualTicks(product)).toEqual([
      { bid: '50100.00000000', ask: '50101.00000000', entered_by: ids.alice, approved_by: null },
    ]);
    expect(await auditRows('contracts.quote_set', product)).toMatchObject([
      {
        operator_id: ids.alice,
        after: { bid: '50100.00', ask: '50101.00', tickId: applied.data.tickId, deviationBps: 21 },
      },
    ]);
    for (const [order, reason] of [
      [buy, 'take_profit'],
      [sell, 'stop_loss'],
    ] as const) {
      expect(await auditRows('contracts.manual_tick_close', order.data.id)).toMatchObject([
        {
          operator_id: ids.alice,
          after: { tickId: applied.data.tickId, enteredBy: ids.alice, approvedBy: null, reason },
        },
      ]);
    }
  });

  it('is measured against the independent price, to the basis point, never against another lone quote', async () => {
    const product = await coinProduct();
    await feedTick(product, '50000.00', '50001.00');
    nowMs += 130_000;
    // Exactly 50 bps of 50 000.50 on the ask applies; a cent more does not.
    expect((await quote(alice, product, '50250.00', '50250.50')).data).toMatchObject({ outcome: 'applied' });
    expect((await quote(alice, product, '50250.00', '50250.51')).data).toMatchObject({
      outcome: 'proposed',
      proposal: { why: 'out_of_band', deviationBps: 51 },
    });
    // 50 bps from the lone quote above but 101 from the feed: measured from the feed.
    expect((await quote(alice, product, '50500.00', '50501.00')).data).toMatchObject({
      outcome: 'proposed',
      proposal: { why: 'out_of_band', referenceMid: '50000.5', deviationBps: 101 },
    });
    await t.services.contracts.watcher.idle();
    expect(await manualTicks(product)).toEqual([
      { bid: '50250.00000000', ask: '50250.50000000', entered_by: ids.alice, approved_by: null },
    ]);
  });

  it('without a recent independent price always waits for a second operator; an approved quote is a reference', async () => {
    const product = await coinProduct();
    // Never priced.
    const first = await quote(alice, product, '50000.00', '50001.00');
    expect(first.data).toMatchObject({
      outcome: 'proposed',
      proposal: { why: 'no_reference', referenceMid: null, deviationBps: null },
    });
    expect((await decide(bob, first.data.proposal!.id, 'approve')).code).toBe(200);
    // A price two operators set anchors lone quotes near it.
    expect((await quote(alice, product, '50010.00', '50011.00')).data).toMatchObject({ outcome: 'applied' });
    // Past the reference's age (600 s), nothing is near enough to anchor a lone quote.
    nowMs += 601_000;
    expect((await quote(alice, product, '50010.00', '50011.00')).data).toMatchObject({
      outcome: 'proposed',
      proposal: { why: 'no_reference', referenceMid: '50000.5', deviationBps: 3 },
    });
    await t.services.contracts.watcher.idle();
    expect(await manualTicks(product)).toEqual([
      { bid: '50000.00000000', ask: '50001.00000000', entered_by: ids.alice, approved_by: ids.bob },
      { bid: '50010.00000000', ask: '50011.00000000', entered_by: ids.alice, approved_by: null },
    ]);
  });

  it('expires: an undecided proposal cannot be approved after its lifetime', async () => {
    const product = await coinProduct();
    const proposed = await quote(alice, product, '50000.00', '50001.00');
    const id = proposed.data.proposal!.id;
    nowMs += CONTRACT_MANUAL_QUOTE_DEFAULTS.proposalTtlS * 1000;
    expect(await decide(bob, id, 'approve')).toMatchObject({
      code: 409,
      message: 'This quote proposal has expired: prices go stale, propose a fresh quote',
    });
    const expired = await consoleCall<{ items: ContractQuoteProposal[] }>(
      t,
      'GET',
      '/api/admin/contracts/quote-proposals?status=expired',
      bob,
    );
    expect(expired.data.items.find((item) => item.id === id)).toMatchObject({ status: 'expired' });
    const pending = await consoleCall<{ items: ContractQuoteProposal[] }>(
      t,
      'GET',
      '/api/admin/contracts/quote-proposals?status=pending',
      bob,
    );
    expect(pending.data.items.map((item) => item.id)).not.toContain(id);
    expect(await manualTicks(product)).toEqual([]);
  });

  it('answers bad input with its code and changes nothing', async () => {
    const product = await coinProduct();
    const settingsBefore = await consoleCall<ContractManualQuoteSettings>(
      t,
      'GET',
      '/api/admin/contracts/manual-quotes/settings',
      carol,
    );
    expect(settingsBefore.data).toEqual(CONTRACT_MANUAL_QUOTE_DEFAULTS);
    const [auditBefore] = await queryRows<{ count: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as count from audit_log`,
    );
    const [proposals, ticks] = [await proposalCount(), await tickCount()];
    for (const bad of [
      { ...CONTRACT_MANUAL_QUOTE_DEFAULTS, bandBps: 0 },
      { ...CONTRACT_MANUAL_QUOTE_DEFAULTS, bandBps: 1001 },
      { ...CONTRACT_MANUAL_QUOTE_DEFAULTS, bandBps: 2.5 },
      { ...CONTRACT_MANUAL_QUOTE_DEFAULTS, referenceMaxAgeS: 5 },
      { ...CONTRACT_MANUAL_QUOTE_DEFAULTS, proposalTtlS: 3601 },
    ]) {
      const answer = await consoleCall(t, 'PUT', '/api/admin/contracts/manual-quotes/settings', alice, bad);
      expect(answer.code, JSON.stringify(bad)).toBe(400);
    }
    const outOfRange = await consoleCall(t, 'PUT', '/api/admin/contracts/manual-quotes/settings', alice, {
      ...CONTRACT_MANUAL_QUOTE_DEFAULTS,
      bandBps: 1001,
    });
    expect(outOfRange.message).toContain('from 1 to 1000 basis points');
    // Support reads contracts but does not set them.
    expect(
      (await consoleCall(t, 'PUT', '/api/admin/contracts/manual-quotes/settings', carol, CONTRACT_MANUAL_QUOTE_DEFAULTS)).code,
    ).toBe(403);
    expect(await quote(alice, product, '50001.00', '50000.00')).toMatchObject({ code: 400 });
    expect((await quote(alice, product, '50001.00', '50000.00')).message).toContain('the ask must not be below the bid');
    expect(await quote(alice, randomUUID(), '50000.00', '50001.00')).toMatchObject({
      code: 409,
      message: 'This product is not set up for contracts',
    });
    expect((await quote(carol, product, '50000.00', '50001.00')).code).toBe(403);
    expect((await decide(bob, randomUUID(), 'approve')).code).toBe(404);
    expect((await decide(bob, 'not-an-id', 'approve')).code).toBe(400);

    expect((await consoleCall(t, 'GET', '/api/admin/contracts/manual-quotes/settings', carol)).data).toEqual(
      CONTRACT_MANUAL_QUOTE_DEFAULTS,
    );
    const [auditAfter] = await queryRows<{ count: number }>(
      t.testDatabase.database.db,
      sql`select count(*)::int as count from audit_log`,
    );
    expect(auditAfter!.count).toBe(auditBefore!.count);
    expect([await proposalCount(), await tickCount()]).toEqual([proposals, ticks]);
  });

  it('follows the band the operators set (audited)', async () => {
    const product = await coinProduct();
    await feedTick(product, '50000.00', '50001.00');
    nowMs += 130_000;
    const wider = { ...CONTRACT_MANUAL_QUOTE_DEFAULTS, bandBps: 150 };
    const saved = await consoleCall(t, 'PUT', '/api/admin/contracts/manual-quotes/settings', alice, wider);
    try {
      expect(saved).toMatchObject({ code: 200, data: wider });
      expect(await auditRows('contracts.manual_quote_settings_updated', 'contracts_manual_quotes')).toEqual([
        { operator_id: ids.alice, after: wider },
      ]);
      // 101 bps: within 150.
      expect((await quote(alice, product, '50500.00', '50501.00')).data).toMatchObject({ outcome: 'applied' });
    } finally {
      await consoleCall(t, 'PUT', '/api/admin/contracts/manual-quotes/settings', alice, CONTRACT_MANUAL_QUOTE_DEFAULTS);
    }
  });
});
