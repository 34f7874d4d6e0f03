import { randomBytes, randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANG_HEADER_BY_LOCALE, LOCALES } from '@custos/contract';
import { trackBalances } from './support/balances.js';
import { accountIdOf, fund, setTradePassword } from './support/ledger.js';
import { loginMember, operatorCode, registerMember } from './support/members.js';
import {
  describeOperation,
  isIdField,
  judge,
  malformedProbes,
  type Answer,
  operationsOf,
  sampleObject,
  sampleValue,
  samplePath,
  type Operation,
} from './support/openapi-sweep.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The attack sweep (decision 018): every operation of the app's own OpenAPI document, read at test
 * time, is called as an attacker would: without or with a false credential, with another member's
 * ids, and with malformed input. A call added later is swept without a test written for it.
 */

// Friday 2026-11-20, 10:00 in Shanghai, moving with real time: withdrawals are open, and each
// authenticator step comes once (operator log-ins refuse a code used before).
const START = new Date('2026-11-20T02:00:00Z').getTime();
const startedAt = Date.now();
const clock = { now: () => new Date(START + (Date.now() - startedAt)) };

const SLOW_MS = 5_000;
/** The smallest real PNG (1×1, transparent). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const MEMBER_PASSWORD = 'member-password';
const OPERATOR_PASSWORD = 'sweep operator passphrase';
const LANGS = LOCALES.map((locale) => LANG_HEADER_BY_LOCALE[locale]);

let t: TestApp;
let operations: Operation[];
const members: Record<'a' | 'b', { email: string; token: string; accountId: string }> = {
  a: { email: 'sweep-a@example.com', token: '', accountId: '' },
  b: { email: 'sweep-b@example.com', token: '', accountId: '' },
};
const operator = { token: '', secret: '' };
let loggedOutToken: string;
let requestCount = 0;
let addressCounter = 0;

type Envelope = { code: number; message: string; data: unknown };

/**
 * Every request goes out as a stream, because a call that answers with one (the live channel,
 * text/event-stream) never ends by itself: its first frame is read, then the sweep goes away as a
 * client would, which ends the channel on the server. Any other answer is read to its end.
 */
async function send(options: InjectOptions): Promise<Answer> {
  requestCount += 1;
  const response = await t.app.inject({ ...options, payloadAsStream: true });
  const stream = response.stream();
  const streamed = String(response.headers['content-type'] ?? '').startsWith('text/event-stream');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(Buffer.from(chunk as Uint8Array));
    if (streamed) break;
  }
  if (streamed) response.raw.res.destroy();
  const body = Buffer.concat(chunks).toString('utf8');
  return {
    statusCode: response.statusCode,
    headers: response.headers,
    body,
    streamed,
    json: <T>() => JSON.parse(body) as T,
  };
}

async function call<T = unknown>(method: InjectOptions['method'], url: string, token: string, payload?: object) {
  const response = await send({
    method,
    url,
    headers: { authorization: token, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
  // A live channel holds no data of its own to compare: what it carries is read elsewhere.
  if (response.streamed) return { code: response.statusCode, message: 'stream', data: null as T };
  return response.json<Envelope & { data: T }>();
}

async function created<T>(what: string, envelope: Envelope & { data: T }): Promise<T> {
  if (envelope.code !== 200) throw new Error(`${what}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

/** What member B can see of itself through every read call that needs no input: its data, as B sees it. */
async function snapshotOf(token: string, accountId: string): Promise<string> {
  const reads = operations.filter(
    (operation) =>
      operation.caller === 'member' &&
      operation.method === 'GET' &&
      operation.pathParameters.length === 0 &&
      operation.queryParameters.every((parameter) => !parameter.required),
  );
  const views: Record<string, unknown> = {};
  for (const operation of reads) views[operation.path] = (await call('GET', operation.path, token)).data;
  const balances = [...(await t.services.ledger.balancesOf([accountId])).entries()]
    .map(([key, units]) => `${key}=${units}`)
    .sort();
  // When a session was last seen and the server's time (`serverTime`, the contracts' `asOf`) move by themselves.
  return JSON.stringify({ views, balances }, (key, value: unknown) =>
    key === 'lastSeenAt' || key === 'serverTime' || key === 'asOf' ? undefined : value,
  );
}

/** Every UUID in a JSON text. */
function uuidsIn(text: string): Set<string> {
  return new Set(text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? []);
}

async function memberLogin(who: 'a' | 'b'): Promise<void> {
  const response = await loginMember(t, members[who].email, MEMBER_PASSWORD);
  members[who].token = (await created('member log-in', response.json<Envelope & { data: { token: string } }>())).token;
}

/** The operator's log-in as the console makes it, with the next authenticator step not used yet. */
async function operatorLogin(): Promise<void> {
  for (const offset of [0, 1, -1]) {
    addressCounter += 1;
    const response = await send({
      method: 'POST',
      url: '/api/admin/auth/login',
      remoteAddress: `10.77.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`,
      payload: { username: 'admin', password: OPERATOR_PASSWORD, googleCode: operatorCode(t, operator.secret, offset) },
    });
    const body = response.json<Envelope & { data: { token: string } }>();
    if (body.code === 200) {
      operator.token = `Bearer ${body.data.token}`;
      return;
    }
  }
  throw new Error('the operator could not log in again');
}

/** A probe may have ended a session (log-out calls take no input): log in again so the sweep goes on. */
async function keepSessionsAlive(): Promise<void> {
  if ((await send({ method: 'GET', url: '/api/user/info', headers: { authorization: members.a.token } })).statusCode === 401) {
    await memberLogin('a');
  }
  if ((await send({ method: 'GET', url: '/api/admin/auth/me', headers: { authorization: operator.token } })).statusCode === 401) {
    await operatorLogin();
  }
}

function tokenFor(operation: Operation): string | undefined {
  if (operation.caller === 'member') return members.a.token;
  if (operation.caller === 'operator') return operator.token;
  return undefined;
}

/** A well-formed request (sample values, made-up ids) to an operation. */
function wellFormed(operation: Operation, headers: Record<string, string>): InjectOptions {
  const query = operation.queryParameters
    .map((parameter) => `${parameter.name}=${encodeURIComponent(String(sampleValue(parameter.name, parameter.schema)))}`)
    .join('&');
  return {
    method: operation.method,
    url: `${samplePath(operation)}${query ? `?${query}` : ''}`,
    headers,
    ...(operation.body ? { payload: sampleObject(operation.body) } : {}),
  };
}

/** A chat message carries text or one image, never both: keep the one under test (or the text). */
function textOrImage(field: string, body: Record<string, unknown>): Record<string, unknown> {
  const { text, imageId, ...rest } = body;
  return field === 'imageId' ? { ...rest, imageId } : { ...rest, text };
}

/**
 * Bodies whose fields depend on each other in ways the JSON schema cannot say (a refinement): as
 * sampled they fail validation, so the id sweep would only compare two 400s about the body's shape.
 * Each gives the body a well-behaved client sends when `field` is the id under test.
 */
const CROSS_FIELD_BODIES: Record<string, (field: string, body: Record<string, unknown>) => Record<string, unknown>> = {
  // A resident ID card number must pass its check digit; a passport number only its pattern.
  'POST /api/user/identity': (_field, body) => ({ ...body, documentType: 'passport', idNumber: 'SWEEP-12345' }),
  'POST /api/support/chat/messages': textOrImage,
  'POST /api/otc/chat_send': textOrImage,
  // At least one payment method to be paid to.
  'POST /api/otc/sell': (_field, body) => ({ ...body, paymentMethodIds: [randomUUID()] }),
};

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  // /healthz answers load balancers in its own shape, outside the API's envelope (decision 004).
  operations = operationsOf(t.app.swagger() as Parameters<typeof operationsOf>[0]).filter((operation) =>
    operation.path.startsWith('/api/'),
  );

  // The console's own first log-in: one-time password, a new password, an authenticator bound.
  const first = await t.services.operators.ensureFirstOperator();
  if (!first) throw new Error('no first operator');
  const login = await send({
    method: 'POST',
    url: '/api/admin/auth/login',
    payload: { username: first.username, password: first.oneTimePassword },
  });
  operator.token = `Bearer ${(await created('one-time log-in', login.json<Envelope & { data: { token: string } }>())).token}`;
  await created(
    'new password',
    await call('POST', '/api/admin/auth/password', operator.token, {
      oldPassword: first.oneTimePassword,
      newPassword: OPERATOR_PASSWORD,
    }),
  );
  operator.secret = (
    await created('authenticator', await call<{ secret: string }>('POST', '/api/admin/auth/totp/setup', operator.token))
  ).secret;
  await created(
    'bind',
    await call('POST', '/api/admin/auth/totp/bind', operator.token, { googleCode: operatorCode(t, operator.secret) }),
  );

  for (const who of ['a', 'b'] as const) {
    const member = members[who];
    member.token = await registerMember(t, member.email, MEMBER_PASSWORD);
    member.accountId = await accountIdOf(t, member.token);
    await setTradePassword(t, member.token);
    await fund(t, member.accountId, 'USDT', '10000');
  }
  const other = await registerMember(t, 'sweep-gone@example.com', MEMBER_PASSWORD);
  await call('POST', '/api/user/logout', other);
  loggedOutToken = other;

  // Member B's objects, made through the real calls: each kind a call can be asked about by id.
  const b = members.b.token;
  const sub = await created(
    'sub-account',
    await call<{ id: string }>('POST', '/api/account/create_sub', b, { nickname: 'B sub' }),
  );
  await call('POST', '/api/account/switch', b, { accountId: members.b.accountId });
  const chainMethod = await created(
    'crypto method',
    await call<{ id: string }>('POST', '/api/withdraw/add_chain', b, {
      network: 'TRC20',
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    }),
  );
  await created(
    'bank method',
    await call('POST', '/api/withdraw/add_bank', b, {
      bankName: 'Sweep Bank',
      cardNumber: '6222020200112233445',
      holderName: 'B Member',
      branch: 'Main',
    }),
  );
  const image = async (purpose: 'identity' | 'avatar') =>
    (
      await created(
        'upload',
        await call<{ id: string }>('POST', '/api/upload/image', b, { purpose, contentBase64: TINY_PNG.toString('base64') }),
      )
    ).id;
  const [front, back, selfie, avatar] = [
    await image('identity'),
    await image('identity'),
    await image('identity'),
    await image('avatar'),
  ];
  await created(
    'identity',
    await call('POST', '/api/user/identity', b, {
      documentType: 'passport',
      idNumber: 'E12345678',
      realName: 'B Member',
      frontImageId: front,
      backImageId: back,
      selfieImageId: selfie,
    }),
  );
  await created('avatar', await call('POST', '/api/user/update_profile', b, { nickname: 'B', avatar: `upload:${avatar}` }));
  const plans = (await call<{ plans: { id: string; minAmount: string }[] }>('GET', '/api/hosting/config', b)).data.plans;
  await created(
    'custody order',
    await call('POST', '/api/hosting/create', b, {
      planId: plans[0]!.id,
      amount: '1000',
      autoRenew: false,
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
    }),
  );
  const products = (await call<{ id: string }[]>('GET', '/api/machine/list', b)).data;
  await created(
    'machine',
    await call('POST', '/api/machine/buy', b, {
      machineId: products[0]!.id,
      payWith: 'USDT',
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
    }),
  );
  await created(
    'transfer',
    await call('POST', '/api/account/transfer', b, {
      toAccountId: sub.id,
      asset: 'USDT',
      amount: '10',
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
    }),
  );
  await created(
    'withdrawal',
    await call('POST', '/api/withdraw/withdraw', b, {
      methodId: chainMethod.id,
      amount: '100',
      tradePassword: 'trade-pass-1',
      idempotencyKey: randomUUID(),
    }),
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('attack sweep over the OpenAPI document', () => {
  it('refuses every member call without a live session, and every console call to a member', async () => {
    const refused: string[] = [];
    let count = 0;
    for (const operation of operations) {
      if (operation.caller === 'public') continue;
      const credentials =
        operation.caller === 'member'
          ? { none: undefined, 'made-up': randomBytes(32).toString('hex'), 'logged-out': loggedOutToken }
          : { none: undefined, 'made-up': `Bearer ${randomBytes(32).toString('hex')}`, member: members.a.token };
      for (const [label, token] of Object.entries(credentials)) {
        count += 1;
        const response = await send(wellFormed(operation, { lang: 'EN', ...(token ? { authorization: token } : {}) }));
        const expected = label === 'member' ? [401, 403] : [401];
        const body = response.streamed ? null : response.json<Envelope>();
        if (!body || !expected.includes(response.statusCode) || !expected.includes(body.code) || body.data !== null) {
          refused.push(
            `${describeOperation(operation)} with ${label} credential → ${response.statusCode} ${response.body.slice(0, 120)}`,
          );
        }
      }
    }
    console.info(`attack sweep, credentials: ${count} requests, ${refused.length} let through`);
    expect(count).toBeGreaterThan(100);
    expect(refused).toEqual([]);
  }, 120_000);

  it("answers member A about member B's ids exactly as about ids that do not exist, reading and changing nothing", async () => {
    const balances = await trackBalances(t, { a: members.a.accountId, b: members.b.accountId });
    // B's own ids: every id B's reads show that A's reads do not (plans and products are everyone's).
    const before = await snapshotOf(members.b.token, members.b.accountId);
    const seenByA = uuidsIn(await snapshotOf(members.a.token, members.a.accountId));
    const idsOfB = [...uuidsIn(before)].filter((id) => !seenByA.has(id));
    expect(idsOfB.length).toBeGreaterThanOrEqual(10);

    const leaks: string[] = [];
    let operationCount = 0;
    let idFieldCount = 0;
    let count = 0;
    // Every id field must be answered past validation with a made-up id: a sweep that only ever
    // meets the schema's 400 compares two refusals of the request's shape, never of B's id.
    const stuckAtValidation: string[] = [];
    let pastValidation = 0;
    const headers = { authorization: members.a.token, lang: 'EN' };
    for (const operation of operations.filter((item) => item.caller === 'member')) {
      const idFields: ['path' | 'query' | 'body', string][] = [
        ...operation.pathParameters.filter((p) => isIdField(p.name, p.schema)).map((p): ['path', string] => ['path', p.name]),
        ...operation.queryParameters.filter((p) => isIdField(p.name, p.schema)).map((p): ['query', string] => ['query', p.name]),
        ...Object.entries(operation.body?.properties ?? {})
          .filter(([name, schema]) => isIdField(name, schema))
          .map(([name]): ['body', string] => ['body', name]),
      ];
      if (idFields.length === 0) continue;
      operationCount += 1;
      idFieldCount += idFields.length;
      for (const [where, field] of idFields) {
        const ask = async (id: string) => {
          const request = wellFormed(operation, headers);
          const url = request.url as string;
          if (where === 'path') request.url = samplePath(operation, { [field]: id });
          if (where === 'query') request.url = url.replace(new RegExp(`${field}=[^&]*`), `${field}=${id}`);
          const crossField = CROSS_FIELD_BODIES[describeOperation(operation)];
          if (crossField) request.payload = crossField(field, request.payload as Record<string, unknown>);
          if (where === 'body') request.payload = { ...(request.payload as object), [field]: id };
          count += 1;
          const response = await send(request);
          const body = response.json<Envelope>();
          return { status: response.statusCode, code: body.code, data: JSON.stringify(body.data), message: body.message };
        };
        const unknown = await ask(randomUUID());
        // Refused as a malformed id is: the schema stopped it (a business 400, such as an image that
        // is not the caller's, is past validation).
        const malformed = await ask('not-a-uuid');
        if (unknown.status === 400 && unknown.message === malformed.message) {
          stuckAtValidation.push(`${describeOperation(operation)} ${where} ${field}: ${JSON.stringify(unknown)}`);
        } else pastValidation += 1;
        for (const id of idsOfB) {
          const answer = await ask(id);
          if (answer.status !== unknown.status || answer.code !== unknown.code || answer.data !== unknown.data) {
            leaks.push(
              `${describeOperation(operation)} ${where} ${field}=${id}: ${JSON.stringify(answer)} vs unknown ${JSON.stringify(unknown)}`,
            );
          }
        }
      }
    }
    const after = await snapshotOf(members.b.token, members.b.accountId);
    console.info(
      `attack sweep, other member's ids: ${operationCount} operations, ${idsOfB.length} ids of B, ${count} requests, ${pastValidation} id fields answered past validation, ${leaks.length} leaks`,
    );
    expect(operationCount).toBeGreaterThanOrEqual(10);
    expect(stuckAtValidation).toEqual([]);
    expect(pastValidation).toBe(idFieldCount);
    expect(leaks).toEqual([]);
    expect(after).toBe(before);
    // Nor did any account move, A's, B's or the platform's.
    await balances.expectChanges({});
  }, 120_000);

  it('answers every malformed request with a localised envelope below 500, within 5 s, and stays healthy', async () => {
    const fiveHundreds: string[] = [];
    const nonEnvelopes: string[] = [];
    const notLocalised: string[] = [];
    const slow: string[] = [];
    const balances = await trackBalances(t, { a: members.a.accountId, b: members.b.accountId });
    let count = 0;
    for (const operation of operations) {
      for (const probe of malformedProbes(operation)) {
        const lang = LANGS[count % LANGS.length]!;
        const token = tokenFor(operation);
        const headers = {
          ...(probe.request.headers as Record<string, string>),
          lang,
          ...(token ? { authorization: token } : {}),
        };
        count += 1;
        const started = performance.now();
        const response = await send({ ...probe.request, headers });
        const elapsedMs = performance.now() - started;
        const verdict = judge(response, lang);
        const where = `${describeOperation(operation)} [${probe.label}] → ${response.statusCode} ${response.body.slice(0, 160)}`;
        if (verdict.fiveHundred) fiveHundreds.push(where);
        if (!verdict.envelope) nonEnvelopes.push(where);
        else if (!verdict.localised) notLocalised.push(`${where} (lang ${lang})`);
        if (elapsedMs > SLOW_MS) slow.push(`${where} took ${Math.round(elapsedMs)} ms`);
      }
      await keepSessionsAlive();
    }
    // One body over the limit, for the whole app: the limit is the same everywhere.
    const tooLarge = await send({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', lang: 'JP' },
      payload: JSON.stringify({ email: 'x'.repeat(1_100_000) }),
    });
    count += 1;
    if (!judge(tooLarge, 'JP').localised || tooLarge.statusCode !== 413)
      nonEnvelopes.push(`body too large → ${tooLarge.statusCode} ${tooLarge.body}`);

    const health = await send({ method: 'GET', url: '/healthz' });
    const config = await send({ method: 'GET', url: '/api/common/config', headers: { lang: 'EN' } });
    console.info(
      `attack sweep, malformed input: ${operations.length} operations, ${count} requests, ${fiveHundreds.length} 5xx, ${nonEnvelopes.length} non-envelopes, ${notLocalised.length} not localised, ${slow.length} over 5 s; ${requestCount} requests in all`,
    );
    expect(fiveHundreds).toEqual([]);
    expect(nonEnvelopes).toEqual([]);
    expect(notLocalised).toEqual([]);
    expect(slow).toEqual([]);
    expect(count).toBeGreaterThan(3000);
    expect(health.json()).toMatchObject({ status: 'ok' });
    expect(config.json()).toMatchObject({ code: 200 });
    // A malformed request moves no money.
    await balances.expectChanges({});
  }, 240_000);
});
