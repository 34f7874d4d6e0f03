import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANG_HEADER_BY_LOCALE, LOCALES } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { accountIdOf } from './support/ledger.js';
import { operatorToken, registerMember } from './support/members.js';
import { operationsOf, sampleValue, type Operation } from './support/openapi-sweep.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * Issue 31, finding 9: an outside sweep found `page=9007199254740991` (the largest safe integer)
 * answered with a 500 on a console team list, whose offset `(page - 1) × pageSize` is past what a
 * number holds exactly. Every paged call must refuse such a page as it refuses page 0: a 400 naming
 * the page, in the caller's language.
 */

let t: TestApp;
let memberToken: string;
let memberId: string;
let superAdmin: string;
let paged: Operation[];

beforeAll(async () => {
  t = await createTestApp();
  memberToken = await registerMember(t, 'paging-member@example.com');
  const accountId = await accountIdOf(t, memberToken);
  const [row] = await queryRows<{ member_id: string }>(
    t.testDatabase.database.db,
    sql`select member_id::text as member_id from accounts where id = ${accountId}::uuid`,
  );
  memberId = row!.member_id;
  superAdmin = await operatorToken(t, 'paging-admin', 'super_admin');
  paged = operationsOf(t.app.swagger() as Parameters<typeof operationsOf>[0]).filter(
    (operation) =>
      operation.method === 'GET' &&
      operation.caller !== 'public' &&
      operation.queryParameters.some((parameter) => parameter.name === 'page'),
  );
});
afterAll(async () => {
  await t.close();
});

/** The call with `page` set, the other query parameters as a client sends them, and a real member in the path. */
function pagedUrl(operation: Operation, page: string): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) =>
    name === 'id' && operation.path.startsWith('/api/admin/members/') ? memberId : 'missing',
  );
  const query = operation.queryParameters
    .filter((parameter) => parameter.name !== 'page' && parameter.schema.default === undefined)
    .map((parameter) => `${parameter.name}=${encodeURIComponent(String(sampleValue(parameter.name, parameter.schema)))}`);
  return `${path}?${[...query, `page=${page}`].join('&')}`;
}

async function ask(operation: Operation, page: string, lang: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: pagedUrl(operation, page),
    headers: { authorization: operation.caller === 'operator' ? superAdmin : memberToken, lang },
  });
  return { status: response.statusCode, body: response.json<{ code: number; message: string; data: unknown }>() };
}

describe('paging', () => {
  it('refuses a page past any list on every paged call as it refuses page 0, in every language', async () => {
    expect(paged.length).toBeGreaterThanOrEqual(20);
    expect(paged.map((operation) => operation.path)).toContain('/api/admin/members/{id}/team');
    const wrong: string[] = [];
    for (const operation of paged) {
      for (const locale of LOCALES) {
        const lang = LANG_HEADER_BY_LOCALE[locale];
        const zero = await ask(operation, '0', lang);
        for (const page of ['9007199254740991', '1000001']) {
          const answer = await ask(operation, page, lang);
          if (answer.status !== 400 || answer.body.code !== 400 || answer.body.message !== zero.body.message) {
            wrong.push(`${operation.path} page=${page} ${lang}: ${answer.status} ${JSON.stringify(answer.body)}`);
          }
        }
        if (zero.status !== 400) wrong.push(`${operation.path} page=0 ${lang}: ${zero.status}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('still answers the last page a bound allows', async () => {
    const answer = await t.app.inject({
      method: 'GET',
      url: `/api/admin/members/${memberId}/team?page=1000000&pageSize=100`,
      headers: { authorization: superAdmin, lang: 'EN' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ code: 200, data: { downline: { items: [], page: 1000000, pageSize: 100 } } });
  });
});
