import {
  addCryptoMethodRequest,
  exchangeRequest,
  hostingCreateRequest,
  machineBuyRequest,
  transferRequest,
  withdrawRequest,
  type Asset,
  type OperatorRole,
} from '@custos/contract';
import type { Services } from '../container.js';
import type { RequestOrigin } from '../http/origin.js';
import type { MemberSessionContext } from '../modules/auth/auth.service.js';
import { seedContent } from './content.js';
import { seedHelpAndDocuments } from './help.js';
import { seedFeedback } from './feedback.js';
import { seedSupportChat } from './support-chat.js';
import { seedAirdrops } from './airdrops.js';
import { seedQuotes } from './quotes.js';
import { DEMO_TEAM_TREE, seedTeam } from './team.js';
import { DEMO_MEMBER, type DemoContext, type DemoMember } from './context.js';
import { DEMO_OTC_TRADERS, seedOtc } from './otc.js';
import { seedReleases } from './releases.js';
import { DEMO_CONTRACT_TRADER, seedContracts } from './contracts.js';

export { DEMO_MEMBER, type DemoContext, type DemoMember };

/**
 * `npm start -- --demo` (decision 019): fills the platform so a newcomer sees a living app. Everything
 * goes through the services a member or an operator would reach (the ledger moves every balance),
 * and every domain only adds what it finds missing, so a second start changes nothing.
 *
 * Extension point: a later feature adds ONE function `seed<Domain>(demo: DemoContext)` below and lists
 * it in DEMO_DOMAINS. It checks first whether its data is there (a read through its own service) and
 * only then acts, as the demo member (`demo.actAs(email)`) or as the demo operators (`demo.operatorId`).
 */

/** Members invited by the demo member (its team); same passwords. */
export const DEMO_TEAM = ['alice@custos.example', 'bob@custos.example', 'carol@custos.example'] as const;

/**
 * The demo operator (super admin) printed on the terminal. Its authenticator secret is public on
 * purpose: the account exists and logs in only under --demo (operators.demo, decision 019).
 */
export const DEMO_OPERATOR = {
  username: 'demo',
  password: 'demo-operator-pass',
  role: 'super_admin' as OperatorRole,
  totpSecret: 'CUSTOSDEMOCONSOLEAUTHCODE234567A',
} as const;

/** The second pair of eyes the demo's manual credits need (four eyes): proposes, the demo operator approves. */
const DEMO_FINANCE = {
  username: 'demo-finance',
  password: 'demo-finance-pass',
  role: 'finance' as OperatorRole,
  totpSecret: 'CUSTOSDEMOFINANCEAUTHCODE234567B',
} as const;

/** Where the demo's pending withdrawal goes: a public test address (account 5 of Hardhat's mnemonic). */
const DEMO_PAYOUT_ADDRESS = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc';
const SUB_ACCOUNT_NICKNAME = 'Savings';

/** What the demo member holds after the seed, before anything a person does (asserted by demo-seed.test). */
export const DEMO_OPENING_CREDITS: readonly { asset: Asset; amount: string }[] = [
  { asset: 'USDT', amount: '10000.0000' },
  { asset: 'FUEL', amount: '100.0000' },
  { asset: 'TICKET', amount: '300.0000' },
];
const TEAM_OPENING_USDT = '1500.0000';

const SEED_ORIGIN: RequestOrigin = { ip: '127.0.0.1', userAgent: 'custos demo seed', requestId: 'demo-seed' };

export interface DemoSummary {
  member: typeof DEMO_MEMBER;
  team: readonly string[];
  /** The rest of the demo member's team (server/src/demo/team.ts), up to three generations down; same passwords. */
  teamBelow: readonly string[];
  operator: { username: string; password: string; totpSecret: string };
  /** OTC traders with listings, an order in progress and an appeal (server/src/demo/otc.ts); same passwords. */
  otcTraders: readonly string[];
  /** The contract trader with open and closed contract orders (server/src/demo/contracts.ts); same passwords. */
  contractTrader: string;
  /** The demo member's BEP20 deposit address, when the BEP20 network is on. */
  depositAddress: string | null;
}

// ── Domains ───────────────────────────────────────────────────────────────────────────────────────

async function seedSite({ services }: DemoContext): Promise<void> {
  const site = await services.settings.get('site');
  if (!site.customerServiceUrl) {
    await services.settings.set(
      'site',
      {
        ...site,
        communityLinks: { international: 'https://t.me/custos_global', asiaPacific: 'https://t.me/custos_apac' },
        customerServiceUrl: 'https://t.me/custos_support',
      },
      null,
    );
  }
}

async function seedMembers(demo: DemoContext): Promise<void> {
  const { rootInviteCode } = await demo.services.settings.get('registration');
  await demo.join(DEMO_MEMBER.email, rootInviteCode);
  const leader = await demo.member(DEMO_MEMBER.email);
  for (const email of DEMO_TEAM) await demo.join(email, leader.inviteCode);
}

/** Opening balances: manual credits, proposed by the demo finance operator and approved by the demo operator. */
async function seedFunds(demo: DemoContext): Promise<void> {
  const credits: { email: string; asset: Asset; amount: string }[] = [
    ...DEMO_OPENING_CREDITS.map((credit) => ({ email: DEMO_MEMBER.email, ...credit })),
    ...DEMO_TEAM.map((email) => ({ email, asset: 'USDT' as const, amount: TEAM_OPENING_USDT })),
  ];
  for (const credit of credits) await demo.creditOnce(credit.email, credit.asset, credit.amount);
}

async function seedHosting(demo: DemoContext): Promise<void> {
  const { services } = demo;
  const plans = await services.hosting.adminPlans();
  const plan = (periodDays: number) => {
    const found = plans.find((candidate) => candidate.periodDays === periodDays && candidate.status === 'active');
    if (!found) throw new Error(`demo: no active ${periodDays}-day custody plan`);
    return found.id;
  };
  const orders: Record<string, { periodDays: number; amount: string; autoRenew: boolean }[]> = {
    [DEMO_MEMBER.email]: [
      { periodDays: 30, amount: '3000.0000', autoRenew: false },
      { periodDays: 90, amount: '1500.0000', autoRenew: true },
    ],
    ...Object.fromEntries(DEMO_TEAM.map((email) => [email, [{ periodDays: 30, amount: '1000.0000', autoRenew: false }]])),
  };
  for (const [email, memberOrders] of Object.entries(orders)) {
    if ((await services.hosting.orders(await demo.readAs(email), undefined, 1, 1)).total > 0) continue;
    for (const order of memberOrders) {
      await services.hosting.create(
        await demo.actAs(email),
        hostingCreateRequest.parse({
          planId: plan(order.periodDays),
          amount: order.amount,
          autoRenew: order.autoRenew,
          tradePassword: DEMO_MEMBER.tradePassword,
          idempotencyKey: `demo-hosting-${order.periodDays}`,
        }),
      );
    }
  }
}

async function seedMachines(demo: DemoContext): Promise<void> {
  const { services } = demo;
  if ((await services.machines.index(await demo.readAs(DEMO_MEMBER.email), undefined, 1, 1)).machines.total > 0) return;
  const products = await services.machines.list();
  const product = (name: string) => {
    const found = products.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`demo: no machine "${name}" on sale`);
    return found.id;
  };
  const purchases = [
    { machineId: product('S1 Lite 10T'), payWith: 'USDT', idempotencyKey: 'demo-machine-usdt' },
    { machineId: product('S1 Lite 10T'), payWith: 'TICKET', idempotencyKey: 'demo-machine-ticket' },
  ];
  for (const purchase of purchases) {
    await services.machines.buy(
      await demo.actAs(DEMO_MEMBER.email),
      machineBuyRequest.parse({ ...purchase, tradePassword: DEMO_MEMBER.tradePassword }),
    );
  }
}

async function seedExchanges(demo: DemoContext): Promise<void> {
  const { services } = demo;
  if ((await services.exchange.list(await demo.readAs(DEMO_MEMBER.email), 1, 1)).total > 0) return;
  const { rabPriceUsdt } = await services.exchange.getSettings();
  const exchanges = [
    { direction: 'usdt_to_rab', amount: '500.0000', idempotencyKey: 'demo-exchange-buy' },
    { direction: 'rab_to_usdt', amount: '200.0000', idempotencyKey: 'demo-exchange-sell' },
  ];
  for (const exchange of exchanges) {
    await services.exchange.exchange(
      await demo.actAs(DEMO_MEMBER.email),
      exchangeRequest.parse({ ...exchange, quotedPrice: rabPriceUsdt, tradePassword: DEMO_MEMBER.tradePassword }),
    );
  }
}

async function seedTransfers(demo: DemoContext): Promise<void> {
  const { services } = demo;
  const reader = await demo.readAs(DEMO_MEMBER.email);
  if ((await services.transfers.list(reader, 1, 1)).total > 0) return;
  let savings = (await services.accounts.list(reader)).find((account) => account.nickname === SUB_ACCOUNT_NICKNAME)?.id;
  savings ??= await services.accounts.createSub(await demo.actAs(DEMO_MEMBER.email), SUB_ACCOUNT_NICKNAME);
  const transfers = [
    { asset: 'USDT', amount: '800.0000', idempotencyKey: 'demo-transfer-usdt' },
    { asset: 'RAB', amount: '100.0000', idempotencyKey: 'demo-transfer-rab' },
  ];
  for (const transfer of transfers) {
    await services.transfers.transfer(
      await demo.actAs(DEMO_MEMBER.email),
      transferRequest.parse({ ...transfer, toAccountId: savings, tradePassword: DEMO_MEMBER.tradePassword }),
    );
  }
}

/** Withdrawals open all day every day in the demo (an operator setting, audited), and one waits for review. */
async function seedWithdrawals(demo: DemoContext): Promise<void> {
  const { services } = demo;
  const settings = await services.withdraw.getSettings();
  if (settings.openDays.length !== 7 || settings.openTime !== settings.closeTime) {
    await services.withdraw.updateSettings(
      demo.operatorId,
      { ...settings, openDays: [1, 2, 3, 4, 5, 6, 7], openTime: '00:00', closeTime: '00:00' },
      demo.origin,
    );
  }
  const reader = await demo.readAs(DEMO_MEMBER.email);
  if ((await services.withdraw.list(reader, undefined, 1, 1)).total > 0) return;
  const method =
    (await services.withdraw.methods(reader)).find((candidate) => candidate.address === DEMO_PAYOUT_ADDRESS) ??
    (await services.withdraw.addCrypto(
      await demo.actAs(DEMO_MEMBER.email),
      addCryptoMethodRequest.parse({ network: 'BEP20', address: DEMO_PAYOUT_ADDRESS }),
    ));
  await services.withdraw.withdraw(
    await demo.actAs(DEMO_MEMBER.email),
    withdrawRequest.parse({
      methodId: method.id,
      amount: '300.0000',
      tradePassword: DEMO_MEMBER.tradePassword,
      idempotencyKey: 'demo-withdrawal',
    }),
  );
}

/** The demo member's deposit address (made on first request, as the deposit screen does). */
async function seedDepositAddress(demo: DemoContext): Promise<void> {
  if (!bep20Enabled(demo.services)) return;
  await demo.services.chain.address(await demo.readAs(DEMO_MEMBER.email), 'BEP20');
}

function bep20Enabled(services: Services): boolean {
  return services.chain.index().networks.some((network) => network.network === 'BEP20' && network.enabled);
}

/** In order: later domains spend what earlier ones credited. A new feature appends its function here. */
export const DEMO_DOMAINS: readonly ((demo: DemoContext) => Promise<void>)[] = [
  seedSite,
  seedMembers,
  seedFunds,
  seedHosting,
  seedMachines,
  seedExchanges,
  seedTransfers,
  seedWithdrawals,
  seedDepositAddress,
  seedTeam,
  seedFeedback,
  seedContent,
  async function seedAirdropCampaigns(demo) {
    await seedAirdrops(demo, DEMO_TEAM);
  },
  seedQuotes,
  seedSupportChat,
  seedHelpAndDocuments,
  seedOtc,
  seedReleases,
  seedContracts,
];

// ── Runner ────────────────────────────────────────────────────────────────────────────────────────

/** Seeds what is missing; refuses to run unless the server runs with --demo. */
export async function seedDemo(
  services: Services,
  options: { demo: boolean; webDistDir?: string | undefined },
): Promise<DemoSummary> {
  if (!options.demo) throw new Error('the demo seed runs only with --demo');
  const operatorId = await services.operators.ensureDemoOperator(DEMO_OPERATOR);
  const financeOperatorId = await services.operators.ensureDemoOperator(DEMO_FINANCE);
  const sessions = new Map<string, MemberSessionContext>();
  const members = new Map<string, DemoMember>();
  const findMember = async (email: string) => {
    const found = await services.auth.memberByEmail(email);
    if (!found) throw new Error(`demo: member ${email} is missing`);
    return found;
  };
  const demo: DemoContext = {
    services,
    webDistDir: options.webDistDir,
    origin: SEED_ORIGIN,
    operatorId,
    financeOperatorId,
    async member(email) {
      let member = members.get(email);
      if (!member) {
        const found = await findMember(email);
        member = { email, memberId: found.member.id, accountId: found.account.id, inviteCode: found.account.inviteCode };
        members.set(email, member);
      }
      return member;
    },
    async actAs(email) {
      let session = sessions.get(email);
      if (!session) {
        const token = await services.auth.login(email, DEMO_MEMBER.password, SEED_ORIGIN);
        session = await services.auth.authenticate(token);
        sessions.set(email, session);
      }
      // Fresh member row each time: an earlier step may have set the trading password.
      return { ...session, member: (await findMember(email)).member };
    },
    async readAs(email) {
      const found = await findMember(email);
      return { sessionId: '', member: found.member, account: found.account };
    },
    async join(email, invitationCode) {
      if (!(await services.auth.memberByEmail(email))) {
        // The code a member would read in the mail, issued here: the demo has no mailbox to read it from.
        const code = await services.codes.issue(email, 'register');
        const token = await services.auth.register(
          { email, code, invitationCode, password: DEMO_MEMBER.password },
          'en',
          SEED_ORIGIN,
        );
        await services.auth.logout(await services.auth.authenticate(token));
      }
      if (!(await findMember(email)).member.tradePasswordHash) {
        await services.security.setTradePassword(await demo.actAs(email), DEMO_MEMBER.tradePassword);
      }
    },
    async creditOnce(email, asset, amount) {
      const { accountId } = await demo.member(email);
      const log = await services.ledger.log(accountId, { asset, type: 'adjustment_credit' }, { limit: 1, offset: 0 });
      if (log.total > 0) return;
      const proposed = await services.adjustments.propose(
        financeOperatorId,
        { accountId, asset, direction: 'credit', amount, reason: 'Demo: opening balance' },
        SEED_ORIGIN,
      );
      await services.adjustments.approve(operatorId, proposed.id, 'Demo data', SEED_ORIGIN);
    },
  };
  try {
    for (const domain of DEMO_DOMAINS) await domain(demo);
  } finally {
    for (const session of sessions.values()) await services.auth.logout(session);
  }
  let depositAddress: string | null = null;
  if (bep20Enabled(services)) {
    depositAddress = (await services.chain.address(await demo.readAs(DEMO_MEMBER.email), 'BEP20')).address;
  }
  return {
    member: DEMO_MEMBER,
    team: DEMO_TEAM,
    teamBelow: DEMO_TEAM_TREE.map((member) => member.email),
    otcTraders: DEMO_OTC_TRADERS,
    contractTrader: DEMO_CONTRACT_TRADER,
    operator: { username: DEMO_OPERATOR.username, password: DEMO_OPERATOR.password, totpSecret: DEMO_OPERATOR.totpSecret },
    depositAddress,
  };
}
