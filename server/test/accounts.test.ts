import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) });
}

type Accounts = { id: string; kind: string; nickname: string; current: boolean }[];

describe('main and sub-accounts', () => {
  it('creates sub-accounts under the main account, switches the session, and keeps the others untouched', async () => {
    const token = await registerMember(t, 'owner@example.com');
    const other = (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'owner@example.com', password: 'member-password' },
      })
    ).json<{
      data: { token: string };
    }>().data.token;
    const initial = (await call('GET', '/api/account/list', token)).json<{ data: Accounts }>().data;
    expect(initial).toEqual([expect.objectContaining({ kind: 'main', current: true })]);

    const created = (await call('POST', '/api/account/create_sub', token, { nickname: 'Savings' })).json<{
      data: { id: string };
    }>().data;
    const list = (await call('GET', '/api/account/list', token)).json<{ data: Accounts }>().data;
    // The main account keeps its default nickname (decision 020: never the e-mail's local part).
    expect(list.map((account) => [account.kind, account.nickname, account.current])).toEqual([
      ['main', expect.stringMatching(/^会员 [A-Z2-9]{6}$/), true],
      ['sub', 'Savings', false],
    ]);
    const [row] = await queryRows<{ main_account_id: string; inviter_account_id: string }>(
      t.testDatabase.database.db,
      sql`select main_account_id, inviter_account_id from accounts where id = ${created.id}`,
    );
    expect(row!.main_account_id).toBe(initial[0]!.id);
    expect(row!.inviter_account_id).toBe(initial[0]!.id);

    expect((await call('POST', '/api/account/switch', token, { accountId: created.id })).json()).toMatchObject({ code: 200 });
    expect((await call('GET', '/api/user/info', token)).json()).toMatchObject({
      data: { accountId: created.id, accountKind: 'sub', nickname: 'Savings' },
    });
    // Another device of the same member keeps acting for the main account.
    expect((await call('GET', '/api/user/info', other)).json()).toMatchObject({ data: { accountKind: 'main' } });
  });

  it('refuses switching to an account of another member', async () => {
    const a = await registerMember(t, 'member-a@example.com');
    const b = await registerMember(t, 'member-b@example.com');
    const bAccount = (await call('GET', '/api/account/list', b)).json<{ data: Accounts }>().data[0]!;
    const response = await call('POST', '/api/account/switch', a, { accountId: bAccount.id });
    expect(response.statusCode).toBe(404);
    expect((await call('GET', '/api/user/info', a)).json()).toMatchObject({
      data: { email: 'member-a@example.com', accountKind: 'main' },
    });
  });

  it('holds the sub-account limit, also under concurrent requests', async () => {
    // PGlite runs one transaction at a time: only this test's PostgreSQL run proves the race.
    await t.services.settings.set('accounts', { subAccountLimit: 3 }, null);
    const token = await registerMember(t, 'many@example.com');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) => call('POST', '/api/account/create_sub', token, { nickname: `Sub ${index}` })),
    );
    const codes = results.map((response) => response.json<{ code: number }>().code);
    expect(codes.filter((code) => code === 200)).toHaveLength(3);
    expect(codes.filter((code) => code === 409)).toHaveLength(5);
    expect(results.find((response) => response.json<{ code: number }>().code === 409)!.json()).toMatchObject({
      message: 'You can have at most 3 sub-accounts',
    });
    expect((await call('GET', '/api/account/list', token)).json<{ data: Accounts }>().data).toHaveLength(4);
  });

  it('names a missing nickname', async () => {
    const token = await registerMember(t, 'nameless@example.com');
    expect((await call('POST', '/api/account/create_sub', token, {})).json()).toEqual({
      code: 400,
      message: 'please enter nickname',
      data: null,
    });
  });
});
