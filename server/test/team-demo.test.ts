import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TeamInfo } from '@custos/contract';
import { TEAM_DEMO_PASSWORD, seedTeamDemo } from '../src/demo/team.js';
import { loginMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The demo team: added once, the same after a second run, its figures as the app shows them. */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);

afterAll(async () => {
  await t?.close();
});

it('adds a demo team once, with the figures its custody makes', async () => {
  await seedTeamDemo(t.services, t.testDatabase.database.db);
  await seedTeamDemo(t.services, t.testDatabase.database.db);
  const login = await loginMember(t, 'demo-team-leader@custos.demo', TEAM_DEMO_PASSWORD);
  const token = login.json<{ data: { token: string } }>().data.token;
  const response = await t.app.inject({ method: 'GET', url: '/api/user/team_info', headers: { authorization: token } });
  const info = response.json<{ data: TeamInfo }>().data;
  // anna 1500 + ben 800 + chen 600 + dara 300 + emil 5000 + gus 700 + hana 200; valid: anna, ben, chen, emil, gus.
  expect(info.performance.total).toBe('9100.0000');
  expect(info.ownCustody).toBe('2000.0000');
  expect([info.directCount, info.indirectCount, info.validDirectCount, info.validTeamCount]).toEqual([2, 6, 2, 5]);
  expect(await t.services.team.differences()).toEqual([]);
});
