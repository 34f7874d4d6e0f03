import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { OperatorRole } from '@custos/contract';
import { currentAccount } from './funding';
import { uniqueEmail } from './mail';
import { loginViaApi, ownAddress, registerViaApi } from './members';
import { freshCode } from './totp';

export { expect };

/** One `securitypolicyviolation` (or the console line Chromium writes for one) in a page a test opened. */
export interface CspViolation {
  via: 'event' | 'console';
  page: string;
  directive: string;
  blockedUri: string;
  disposition: string;
  sample: string;
}

const BINDING = '__e2eCspViolation';

/**
 * Records Content-Security-Policy violations in every page of every context it is attached to: an
 * init script (which a page's policy cannot block) listens for `securitypolicyviolation` and hands
 * each one to the test through a binding, and the console line Chromium writes for a refused load
 * is kept too, in case a violation fires before the listener of a frame is in place.
 */
export class CspGuard {
  private readonly violations: CspViolation[] = [];
  private readonly attached = new WeakSet<BrowserContext>();

  async attach(context: BrowserContext): Promise<void> {
    if (this.attached.has(context)) return;
    this.attached.add(context);
    await context.exposeBinding(BINDING, ({ page }, detail: Omit<CspViolation, 'via' | 'page'>) => {
      this.violations.push({ via: 'event', page: page.url(), ...detail });
    });
    await context.addInitScript((binding: string) => {
      addEventListener(
        'securitypolicyviolation',
        (event) => {
          const report = (globalThis as unknown as Record<string, (detail: object) => void>)[binding];
          report?.({
            directive: event.effectiveDirective,
            blockedUri: event.blockedURI,
            disposition: event.disposition,
            sample: event.sample,
          });
        },
        true,
      );
    }, BINDING);
    context.on('console', (message) => {
      const text = message.text();
      if (!/Content Security Policy/i.test(text)) return;
      this.violations.push({
        via: 'console',
        page: message.page()?.url() ?? '',
        directive: '',
        blockedUri: '',
        disposition: /Report Only/i.test(text) ? 'report' : 'enforce',
        sample: text,
      });
    });
  }

  /** The violations seen so far, which are then forgotten (the CSP self-test expects its own). */
  take(): CspViolation[] {
    return this.violations.splice(0);
  }
}

/** A console operator made for one test through the real operators API, with a session. */
export interface TestOperator {
  id: string;
  username: string;
  role: OperatorRole;
  password: string;
  totpSecret: string;
  /** The console session (bearer token) the operator got while setting up. */
  token: string;
  /** The address the operator's calls come from (each operator has its own, as people do). */
  address: string;
  /** How far the server's clock runs ahead of the test's (earn.spec moves it forward). */
  clockOffsetMs: number;
}

function superAdminToken(): string {
  const token = process.env.E2E_ADMIN_TOKEN;
  if (!token) throw new Error('E2E_ADMIN_TOKEN is not set (global setup did not run)');
  return token;
}

async function envelopeData<T>(response: Awaited<ReturnType<APIRequestContext['post']>>, what: string): Promise<T> {
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  expect(envelope.code, `${what}: ${envelope.message}`).toBe(200);
  return envelope.data;
}

/**
 * Operators of a test's own: the global setup's super admin creates each through
 * POST /api/admin/operators, and the new operator replaces the one-time password and binds an
 * authenticator, the way a person does it in the console. No test shares an operator, so no test
 * depends on another's authenticator step or log-in count.
 */
export class OperatorFactory {
  constructor(private readonly request: APIRequestContext) {}

  /** Created, with the one-time password the console shows once; not yet logged in. */
  async createWithOneTimePassword(role: OperatorRole): Promise<{ id: string; username: string; oneTimePassword: string }> {
    const random = Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => byte.toString(36).padStart(2, '0')).join('');
    const username = `e2e-${role.replace('_', '')}-${random}`.slice(0, 32);
    const created = await envelopeData<{ operator: { id: string }; oneTimePassword: string }>(
      await this.request.post('/api/admin/operators', {
        headers: { authorization: `Bearer ${superAdminToken()}`, ...ownAddress() },
        data: { username, role },
      }),
      'create operator',
    );
    return { id: created.operator.id, username, oneTimePassword: created.oneTimePassword };
  }

  /** Created, password chosen and authenticator bound: ready for the console. */
  async create(role: OperatorRole): Promise<TestOperator> {
    const { id, username, oneTimePassword } = await this.createWithOneTimePassword(role);
    const addressHeader = ownAddress();
    const address = addressHeader['x-forwarded-for']!;
    const call = async <T>(path: string, data: object, token?: string): Promise<T> =>
      envelopeData<T>(
        await this.request.post(path, {
          headers: { ...addressHeader, ...(token ? { authorization: `Bearer ${token}` } : {}) },
          data,
        }),
        path,
      );
    const password = `${username} passphrase`;
    const { token } = await call<{ token: string }>('/api/admin/auth/login', { username, password: oneTimePassword });
    await call('/api/admin/auth/password', { oldPassword: oneTimePassword, newPassword: password }, token);
    const { secret } = await call<{ secret: string }>('/api/admin/auth/totp/setup', {}, token);
    const { now } = await call<{ now: string }>('/api/test/clock', { advanceMs: 0 });
    const clockOffsetMs = Date.parse(now) - Date.now();
    await call('/api/admin/auth/totp/bind', { googleCode: await freshCode(secret, clockOffsetMs) }, token);
    return { id, username, role, password, totpSecret: secret, token, address, clockOffsetMs };
  }
}

/** A member of a test's own, registered and logged in through the API. */
export interface TestMember {
  email: string;
  password: string;
  token: string;
  accountId: string;
  nickname: string;
}

export const TRADE_PASSWORD = 'trade-secret';

export class MemberFactory {
  constructor(private readonly request: APIRequestContext) {}

  /** `invitationCode`: whose team the member joins (the platform's own code when not given). */
  async create(name: string, options: { tradePassword?: boolean; invitationCode?: string } = {}): Promise<TestMember> {
    const email = uniqueEmail(name);
    const password = 'login-password';
    await registerViaApi(this.request, email, password, options.invitationCode);
    const token = await loginViaApi(this.request, email, password);
    if (options.tradePassword) {
      const set = await this.request.post('/api/user/set_trade_password', {
        headers: { authorization: token },
        data: { password: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
      });
      expect((await set.json()) as unknown).toMatchObject({ code: 200 });
    }
    const account = await currentAccount(this.request, token);
    return { email, password, token, accountId: account.id, nickname: account.nickname };
  }
}

type Asset = 'USDT' | 'RAB' | 'FUEL' | 'TICKET';

interface Fixtures {
  /** Fails the test on any Content-Security-Policy violation in any page it opened (auto). */
  csp: CspGuard;
  operators: OperatorFactory;
  members: MemberFactory;
  /**
   * A console tab of its own (own context: the console keeps its session per tab, and the
   * operator's own address), already signed in with the operator's session.
   */
  openConsole: (operator: TestOperator, options?: { viewport?: { width: number; height: number } }) => Promise<Page>;
  /**
   * Credits a member account the way the platform does it for real: a finance operator of this
   * test proposes a manual adjustment through the console API and a second one approves it.
   */
  fund: (accountId: string, asset: Asset, amount: string) => Promise<void>;
}

/**
 * The `test` every spec imports. Besides Playwright's own fixtures: the CSP guard on every page
 * (the default `page`, and any from `browser.newPage()` / `browser.newContext()` during the test),
 * and factories for the test's own members and operators.
 */
export const test = base.extend<Fixtures>({
  csp: [
    async ({ browser }, use) => {
      const guard = new CspGuard();
      const opened: BrowserContext[] = [];
      const { newContext, newPage } = browser;
      // Pages a test opens itself get the guard too: both ways of opening one are wrapped for the
      // length of the test (a worker runs one test at a time).
      const wrapped: Pick<Browser, 'newContext' | 'newPage'> = {
        newContext: async (options) => {
          const context = await newContext.call(browser, options);
          opened.push(context);
          await guard.attach(context);
          return context;
        },
        newPage: async (options) => {
          const page = await newPage.call(browser, options);
          opened.push(page.context());
          await guard.attach(page.context());
          return page;
        },
      };
      Object.assign(browser, wrapped);
      try {
        await use(guard);
      } finally {
        Object.assign(browser, { newContext, newPage });
      }
      await Promise.all(opened.map((context) => context.close().catch(() => undefined)));
      expect(guard.take(), 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
  context: async ({ context, csp }, use) => {
    await csp.attach(context);
    await use(context);
  },
  page: async ({ page }, use) => {
    await use(page);
    // A route handler still running when the test ends (the app refetching after the last
    // assertion) would find its `route.fetch()` response disposed with the context and fail a test
    // that had passed; the test is over, so those late calls are let go.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  },
  operators: async ({ request }, use) => {
    await use(new OperatorFactory(request));
  },
  members: async ({ request }, use) => {
    await use(new MemberFactory(request));
  },
  openConsole: async ({ browser, csp }, use) => {
    void csp;
    await use(async (operator, options = {}) => {
      const context = await browser.newContext({
        viewport: options.viewport ?? { width: 1280, height: 800 },
        extraHTTPHeaders: { 'x-forwarded-for': operator.address },
      });
      // The session goes in before the console's scripts run, once per tab (a log-out stays one).
      await context.addInitScript((token: string) => {
        if (sessionStorage.getItem('e2e-signed-in')) return;
        sessionStorage.setItem('e2e-signed-in', '1');
        sessionStorage.setItem('custos.operatorToken', token);
      }, operator.token);
      const page = await context.newPage();
      await page.goto('/admin/');
      await expect(page.getByTestId('operator-name')).toContainText(operator.username);
      return page;
    });
  },
  fund: async ({ request, operators }, use) => {
    let pair: Promise<[TestOperator, TestOperator]> | null = null;
    await use(async (accountId, asset, amount) => {
      pair ??= Promise.all([operators.create('finance'), operators.create('finance')]);
      const [proposer, approver] = await pair;
      const proposal = await envelopeData<{ id: string }>(
        await request.post('/api/admin/ledger/adjustments', {
          headers: { authorization: `Bearer ${proposer.token}` },
          data: { accountId, asset, direction: 'credit', amount, reason: 'e2e funding' },
        }),
        'propose adjustment',
      );
      await envelopeData(
        await request.post(`/api/admin/ledger/adjustments/${proposal.id}/approve`, {
          headers: { authorization: `Bearer ${approver.token}` },
          data: {},
        }),
        'approve adjustment',
      );
    });
  },
});
