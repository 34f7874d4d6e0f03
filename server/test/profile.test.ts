import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('profile', () => {
  it('lists the platform avatars and lets a member pick one and change the nickname', async () => {
    const avatars = (await t.app.inject({ method: 'GET', url: '/api/common/avatar_list' })).json<{ data: string[] }>().data;
    expect(avatars).toHaveLength(12);
    expect(avatars[0]).toBe('avatars/a01.svg');

    const token = await registerMember(t, 'profile@example.com');
    const update = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/user/update_profile', headers: { authorization: token, lang: 'EN' }, payload });
    expect((await update({})).json()).toMatchObject({ code: 400, message: 'please enter nickname' });
    expect((await update({ nickname: '   ' })).json()).toMatchObject({ code: 400, message: 'please enter nickname' });
    expect((await update({ nickname: 'x'.repeat(21) })).json()).toMatchObject({ code: 400, message: 'nickname: too long' });
    expect((await update({ avatar: 'https://evil.example/a.png' })).json()).toMatchObject({
      code: 400,
      message: 'This avatar is not available',
    });
    expect((await update({ nickname: ' Satoshi ', avatar: avatars[3] })).json()).toMatchObject({ code: 200 });
    const info = (await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: token } })).json<{
      data: { nickname: string; avatar: string };
    }>().data;
    expect(info).toMatchObject({ nickname: 'Satoshi', avatar: avatars[3] });
  });
});
