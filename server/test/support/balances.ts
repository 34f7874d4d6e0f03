import { money, type Money } from '@custos/contract';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import type { TestApp } from './test-app.js';

/**
 * The balance-delta assertion every money test uses (issue 31). A balanced ledger is not enough: a
 * posting to the wrong account or with the wrong sign still balances. So a test snapshots every
 * ledger account in the database (members', sub-accounts', platform accounts), acts, and states the
 * exact change of each account it expects to move; every other account must be unchanged.
 *
 * Keys: `<name>:<ASSET>:<purpose>` for a member account named in `names` (`buyer:USDT:held`),
 * `platform:<code>:<ASSET>` for a platform account (`platform:fees:USDT`), and
 * `account:<uuid>:<ASSET>:<purpose>` for a member account the test did not name (which then shows up
 * in the failure, rather than passing unseen). Amounts are signed 4-place strings (`-100.0000`; a
 * leading `+` is accepted); zero changes are never listed.
 */
export interface BalanceTracker {
  /** Asserts the exact changes since the last snapshot, then takes a new one (steps can be chained). */
  expectChanges(expected: Readonly<Record<string, string>>): Promise<void>;
  /** The changes since the last snapshot, without asserting or moving the snapshot. */
  changes(): Promise<Record<string, string>>;
  /** Takes a new snapshot (for a step whose changes the test does not assert, such as funding). */
  reset(): Promise<void>;
  /** The current balance of one key, as a 4-place string (`0.0000` for an account not yet opened). */
  balance(key: string): Promise<string>;
}

/** What the tracker reads: a test app, or only its database (a test that runs the server as its own process). */
export type Tracked = Pick<TestApp, 'testDatabase'>;

interface AccountRow {
  owner_account_id: string | null;
  platform_code: string | null;
  asset: string;
  purpose: string;
  balance: string;
}

async function snapshot(t: Tracked, labels: ReadonlyMap<string, string>): Promise<Map<string, Money>> {
  const rows = await queryRows<AccountRow>(
    t.testDatabase.database.db,
    sql`select owner_account_id, platform_code, asset, purpose, balance::text as balance from ledger_accounts`,
  );
  const balances = new Map<string, Money>();
  for (const row of rows) {
    const key =
      row.platform_code !== null
        ? `platform:${row.platform_code}:${row.asset}`
        : `${labels.get(row.owner_account_id!) ?? `account:${row.owner_account_id}`}:${row.asset}:${row.purpose}`;
    balances.set(key, money.parseMoney(row.balance));
  }
  return balances;
}

function diff(before: ReadonlyMap<string, Money>, after: ReadonlyMap<string, Money>): Record<string, string> {
  const keys = new Set([...before.keys(), ...after.keys()]);
  const changes: Record<string, string> = {};
  for (const key of [...keys].sort()) {
    const delta = money.subtract(after.get(key) ?? money.ZERO, before.get(key) ?? money.ZERO);
    if (delta !== 0n) changes[key] = money.formatMoney(delta);
  }
  return changes;
}

function normalise(expected: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(expected).sort()) {
    const text = expected[key]!.startsWith('+') ? expected[key]!.slice(1) : expected[key]!;
    const units = money.parseMoney(text);
    if (units === 0n) throw new Error(`balance tracker: ${key} is listed with a zero change; leave it out`);
    out[key] = money.formatMoney(units);
  }
  return out;
}

/**
 * Starts tracking every ledger account. `names` maps the test's names to account ids
 * (`{ buyer: buyerAccountId, seller: sellerAccountId }`).
 */
export async function trackBalances(t: Tracked, names: Readonly<Record<string, string>> = {}): Promise<BalanceTracker> {
  const labels = new Map<string, string>();
  for (const [name, id] of Object.entries(names)) {
    if (labels.has(id)) throw new Error(`balance tracker: account ${id} is named twice`);
    labels.set(id, name);
  }
  let before = await snapshot(t, labels);
  return {
    async expectChanges(expected) {
      const after = await snapshot(t, labels);
      expect(diff(before, after)).toEqual(normalise(expected));
      before = after;
    },
    async changes() {
      return diff(before, await snapshot(t, labels));
    },
    async reset() {
      before = await snapshot(t, labels);
    },
    async balance(key) {
      return money.formatMoney((await snapshot(t, labels)).get(key) ?? money.ZERO);
    },
  };
}
