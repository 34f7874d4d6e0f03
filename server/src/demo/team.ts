import { money } from '@custos/contract';
import type { Services } from '../container.js';
import type { Db } from '../db/client.js';
import { hashPassword } from '../lib/password.js';
import { newInviteCode } from '../lib/tokens.js';
import { MemberRepository } from '../modules/members/member.repository.js';

/** Demo members log in with this password (and confirm custody with the trading password). */
export const TEAM_DEMO_PASSWORD = 'demo-team-password';
const TEAM_DEMO_TRADE_PASSWORD = 'demo-team-trade';

/**
 * A small team under `demo-team-leader@custos.demo`: two direct members with teams of their own, a
 * few valid members and some not yet valid, so the Team tab, the members list and the level table
 * show real figures. Each entry is (name, inviter, custody opened on the 30-day plan or 0).
 */
const TREE: readonly [string, string | null, string][] = [
  ['leader', null, '2000'],
  ['anna', 'leader', '1500'],
  ['ben', 'leader', '800'],
  ['chen', 'anna', '600'],
  ['dara', 'anna', '300'],
  ['emil', 'ben', '5000'],
  ['fay', 'ben', '0'],
  ['gus', 'emil', '700'],
  ['hana', 'gus', '200'],
];

function emailOf(name: string): string {
  return `demo-team-${name}@custos.demo`;
}

/**
 * Adds the demo team when it is missing; repeated runs change nothing (members are found by e-mail,
 * the funding and custody orders carry fixed idempotency keys). The tree's figures come from the
 * database's own triggers, exactly as for members who register and open custody in the app.
 */
export async function seedTeamDemo(services: Services, db: Db): Promise<void> {
  const members = new MemberRepository(db);
  const plan = (await services.hosting.adminPlans()).find(
    (candidate) => candidate.periodDays === 30 && candidate.status === 'active',
  );
  const passwordHash = await hashPassword(TEAM_DEMO_PASSWORD);
  const tradePasswordHash = await hashPassword(TEAM_DEMO_TRADE_PASSWORD);
  const accountOf = new Map<string, string>();
  for (const [name, inviter, custody] of TREE) {
    const email = emailOf(name);
    let member = await members.findByEmail(email);
    if (!member) {
      const inviterAccountId = inviter ? (accountOf.get(inviter) ?? null) : null;
      member = await db.transaction(async (tx) => {
        const created = await members.insertMember({ email, passwordHash, locale: 'en' }, tx);
        let inviteCode = newInviteCode();
        while (await members.inviteCodeTaken(inviteCode, tx)) inviteCode = newInviteCode();
        await members.insertAccount(
          { memberId: created.id, kind: 'main', mainAccountId: null, inviterAccountId, inviteCode, nickname: `demo-${name}` },
          tx,
        );
        return created;
      });
      await members.updateTradePassword(member.id, tradePasswordHash);
      member = (await members.findById(member.id))!;
    }
    const account = (await members.findMainAccount(member.id))!;
    accountOf.set(name, account.id);
    if (custody === '0' || !plan) continue;
    const amount = money.parseMoney(custody);
    await services.ledger.transaction((tx) =>
      services.ledger.post(tx, {
        idempotencyKey: `demo-team-fund:${email}`,
        kind: 'adjustment',
        postings: [
          {
            account: { ownerAccountId: account.id, asset: 'USDT', purpose: 'available' },
            amount,
            recordType: 'adjustment_credit',
          },
          {
            account: { platformCode: 'adjustments', asset: 'USDT' },
            amount: money.negate(amount),
            recordType: 'adjustment_credit',
          },
        ],
      }),
    );
    await services.hosting.create(
      { sessionId: `demo-team-${name}`, member, account },
      {
        planId: plan.id,
        amount: money.formatMoney(amount),
        autoRenew: true,
        tradePassword: TEAM_DEMO_TRADE_PASSWORD,
        idempotencyKey: `demo-team-custody-${name}`,
      },
    );
  }
}
