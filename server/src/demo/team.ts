import { hostingCreateRequest } from '@custos/contract';
import { DEMO_MEMBER, type DemoContext } from './context.js';

/**
 * The demo member's team below its three direct members (decision 020's Team tab with real figures):
 * who invited whom, in join order, and the custody each opened on the 30-day plan (`null`: registered,
 * none yet). `inviter: null` is the demo member itself.
 *
 *   demo ─┬─ alice 1000 ─┬─ dave 2500
 *         │              └─ erin 300
 *         ├─ bob 1000 ──── frank 4000 ─┬─ grace 800
 *         │                            └─ heidi —
 *         ├─ carol 1000 ── ivan 200
 *         └─ judy —
 *
 * The demo member (4,500 of its own custody) then has 3 valid direct members and 10,800 USDT of team
 * performance: V1 of the default level table (own 500, 3 valid direct, 10,000 team performance), and
 * V2 in sight. Valid (≥ 500): alice, bob, carol, dave, frank, grace; not yet: erin, heidi, ivan, judy.
 */
export const DEMO_TEAM_TREE: readonly { email: string; inviter: string | null; custody: string | null }[] = [
  { email: 'dave@custos.example', inviter: 'alice@custos.example', custody: '2500.0000' },
  { email: 'erin@custos.example', inviter: 'alice@custos.example', custody: '300.0000' },
  { email: 'frank@custos.example', inviter: 'bob@custos.example', custody: '4000.0000' },
  { email: 'grace@custos.example', inviter: 'frank@custos.example', custody: '800.0000' },
  { email: 'heidi@custos.example', inviter: 'frank@custos.example', custody: null },
  { email: 'ivan@custos.example', inviter: 'carol@custos.example', custody: '200.0000' },
  { email: 'judy@custos.example', inviter: null, custody: null },
];

const TEAM_PLAN_DAYS = 30;

/**
 * Grows the demo member's team (alice, bob and carol, from seedMembers) into the tree above: each
 * member registers with its inviter's invitation code, is funded with exactly its custody by an
 * operator-approved credit, and opens that custody itself. The tree's figures are the database's own
 * (decision 020), as for any member. Runs after seedMembers, seedFunds and seedHosting.
 */
export async function seedTeam(demo: DemoContext): Promise<void> {
  const { services } = demo;
  const plan = (await services.hosting.adminPlans()).find(
    (candidate) => candidate.periodDays === TEAM_PLAN_DAYS && candidate.status === 'active',
  );
  if (!plan) throw new Error(`demo: no active ${TEAM_PLAN_DAYS}-day custody plan`);
  for (const { email, inviter, custody } of DEMO_TEAM_TREE) {
    await demo.join(email, (await demo.member(inviter ?? DEMO_MEMBER.email)).inviteCode);
    if (custody === null) continue;
    await demo.creditOnce(email, 'USDT', custody);
    if ((await services.hosting.orders(await demo.readAs(email), undefined, 1, 1)).total > 0) continue;
    await services.hosting.create(
      await demo.actAs(email),
      hostingCreateRequest.parse({
        planId: plan.id,
        amount: custody,
        autoRenew: false,
        tradePassword: DEMO_MEMBER.tradePassword,
        idempotencyKey: `demo-team-hosting-${TEAM_PLAN_DAYS}`,
      }),
    );
  }
}
