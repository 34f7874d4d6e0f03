import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createServices } from '../src/container.js';
import { openPostgres, queryRows, type Database } from '../src/db/client.js';
import { createLogger } from '../src/lib/logger.js';
import { operatorToken, registerMember } from './support/members.js';
import { openStream, type SseStream } from './support/sse.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Two server instances on one PostgreSQL (decision 022): the member's channel is on one, the
 * operator's reply on the other; the event crosses through the database, not process memory.
 */

let a: TestApp;
let bDatabase: Database;
let b: FastifyInstance;
let bUrl: string;
let member: string;
let support: string;
const opened: SseStream[] = [];

beforeAll(async () => {
  a = await createTestApp();
  bDatabase = await openPostgres(a.testDatabase.url!, 5);
  const logger = createLogger('silent');
  const services = createServices(bDatabase, a.config, logger);
  b = await buildApp({ config: a.config, database: bDatabase, services, logger });
  bUrl = await b.listen({ port: 0, host: '127.0.0.1' });
  member = await registerMember(a, 'two-instances@example.com');
  support = await operatorToken(a, 'support-two', 'support');
});
afterAll(async () => {
  for (const stream of opened) stream.close();
  await b.close();
  await bDatabase.close();
  await a.close();
});

async function feedbackAndReply(title: string, replyText: string): Promise<string> {
  const sent = await a.app.inject({
    method: 'POST',
    url: '/api/common/push_feedback',
    headers: { authorization: member, lang: 'EN' },
    payload: { title, content: 'across instances' },
  });
  const id = sent.json<{ data: { id: string } }>().data.id;
  const replied = await a.app.inject({
    method: 'POST',
    url: `/api/admin/feedback/${id}/reply`,
    headers: { authorization: `Bearer ${support}`, lang: 'EN' },
    payload: { reply: replyText },
  });
  expect(replied.json()).toMatchObject({ code: 200 });
  return id;
}

describe('live notifications across instances', () => {
  it('reach a channel on instance B when the reply is made on instance A', async () => {
    const stream = await openStream(bUrl, member);
    opened.push(stream);
    expect((await stream.next()).event).toBe('ready');
    const id = await feedbackAndReply('Cross', 'Answered on A');
    const frame = await stream.next();
    expect(JSON.parse(frame.data)).toMatchObject({ data: { kind: 'feedback.replied', feedbackId: id, title: 'Cross' } });
    stream.close();
  });

  it('lose nothing when the listening connection drops: it comes back and looks again', async () => {
    const stream = await openStream(bUrl, member);
    opened.push(stream);
    expect((await stream.next()).event).toBe('ready');
    // Cut every LISTEN connection to this database: each instance listens for member events, the
    // support inbox's operator events (decision 029) and the OTC console's (decision 031).
    const cut = await queryRows<{ ok: boolean }>(
      a.testDatabase.database.db,
      sql`select pg_terminate_backend(pid) as ok from pg_stat_activity
          where datname = current_database() and query ilike 'listen %'`,
    );
    expect(cut.map((row) => row.ok)).toEqual([true, true, true, true, true, true]);
    const id = await feedbackAndReply('While cut', 'Still delivered');
    const frame = await stream.next();
    expect(JSON.parse(frame.data)).toMatchObject({ data: { kind: 'feedback.replied', feedbackId: id, title: 'While cut' } });
    stream.close();
  });
});
