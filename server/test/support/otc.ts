import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { money } from '@custos/contract';
import { queryRows, type Db } from '../../src/db/client.js';
import { hashPassword } from '../../src/lib/password.js';
import { hashToken, newToken } from '../../src/lib/tokens.js';
import type { LedgerService } from '../../src/modules/ledger/ledger.service.js';

/** The smallest real PNG (1×1, transparent). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export const TRADE_PASSWORD = 'trade-pass-1';

export interface Trader {
  email: string;
  token: string;
  memberId: string;
  accountId: string;
  bankId: string;
  alipayId: string;
}

let tradeHash: string | undefined;

/**
 * Members ready to trade OTC, written straight to the database (many at once for races): a main
 * account, a session, the trading password, an approved real-name check, a bank card and an alipay
 * account, and `usdt` credited from the adjustments account.
 */
export async function seedTraders(
  db: Db,
  ledger: LedgerService,
  prefix: string,
  count: number,
  usdt = '10000',
): Promise<Trader[]> {
  tradeHash ??= await hashPassword(TRADE_PASSWORD);
  const traders: Trader[] = [];
  for (let index = 0; index < count; index += 1) {
    const email = `${prefix}-${index}@example.com`;
    const token = newToken();
    const [member] = await queryRows<{ id: string }>(
      db,
      sql`insert into members (email, password_hash, trade_password_hash, locale) values (${email}, 'x', ${tradeHash}, 'en')
          returning id::text as id`,
    );
    const memberId = member!.id;
    const [account] = await queryRows<{ id: string }>(
      db,
      sql`insert into accounts (member_id, kind, invite_code, nickname)
          values (${memberId}::uuid, 'main', ${`T${randomUUID().replace(/-/g, '').slice(0, 11).toUpperCase()}`}, ${`${prefix}${index}`})
          returning id::text as id`,
    );
    const accountId = account!.id;
    await db.execute(
      sql`insert into member_sessions (member_id, account_id, token_hash, idle_expires_at, absolute_expires_at)
          values (${memberId}::uuid, ${accountId}::uuid, ${hashToken(token)}, now() + interval '1 day', now() + interval '7 days')`,
    );
    const [upload] = await queryRows<{ id: string }>(
      db,
      sql`insert into uploads (owner_member_id, purpose, content_type, size_bytes, sha256, content)
          values (${memberId}::uuid, 'identity', 'image/png', ${TINY_PNG.length}, 'x', ${TINY_PNG}) returning id::text as id`,
    );
    await db.execute(
      sql`insert into identity_verifications (member_id, document_type, id_number, real_name, front_upload_id, back_upload_id,
            selfie_upload_id, status, reviewed_at)
          values (${memberId}::uuid, 'passport', ${`P${index}`}, ${`Trader ${index}`}, ${upload!.id}::uuid, ${upload!.id}::uuid,
            ${upload!.id}::uuid, 'approved', now())`,
    );
    const [bank] = await queryRows<{ id: string }>(
      db,
      sql`insert into withdraw_methods (member_id, type, bank_name, card_number, holder_name, branch, identity)
          values (${memberId}::uuid, 'bank', 'ICBC', ${`62220000${String(index).padStart(8, '0')}`}, ${`Trader ${index}`}, 'Pudong',
            ${`bank:${index}`}) returning id::text as id`,
    );
    const [alipay] = await queryRows<{ id: string }>(
      db,
      sql`insert into withdraw_methods (member_id, type, holder_name, account, identity)
          values (${memberId}::uuid, 'alipay', ${`Trader ${index}`}, ${`${prefix}${index}@alipay.example`}, ${`alipay:${index}`})
          returning id::text as id`,
    );
    if (money.parseMoney(usdt) > 0n) {
      const units = money.parseMoney(usdt);
      await ledger.transaction((tx) =>
        ledger.post(tx, {
          idempotencyKey: `otc-test-fund:${accountId}`,
          kind: 'adjustment',
          postings: [
            {
              account: { ownerAccountId: accountId, asset: 'USDT', purpose: 'available' },
              amount: units,
              recordType: 'adjustment_credit',
            },
            {
              account: { platformCode: 'adjustments', asset: 'USDT' },
              amount: money.negate(units),
              recordType: 'adjustment_credit',
            },
          ],
        }),
      );
    }
    traders.push({ email, token, memberId, accountId, bankId: bank!.id, alipayId: alipay!.id });
  }
  return traders;
}

/** A listing body with sensible defaults (a splittable sell listing of 100 USDT at the guide price). */
export function listingBody(trader: Trader, overrides: Record<string, unknown> = {}) {
  return {
    side: 'sell',
    quantity: '100',
    price: '7.2',
    minPerOrder: '10',
    maxPerOrder: '100',
    splittable: true,
    paymentMethodIds: [trader.bankId],
    paymentWindowMinutes: 15,
    terms: 'Pay from an account in your own name.',
    idempotencyKey: randomUUID(),
    ...overrides,
  };
}
