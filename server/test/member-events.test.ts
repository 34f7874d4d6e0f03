import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { operatorToken, registerMember } from './support/members.js';
import { openStream, type SseFrame, type SseStream } from './support/sse.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
let baseUrl: string;
let carol: string;
let dave: string;
let support: string;
const opened: SseStream[] = [];

beforeAll(async () => {
  // A long heartbeat: the tests run the session check themselves.
  t = await createTestApp({}, { channelOptions: { heartbeatMs: 600_000 } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  carol = await registerMember(t, 'carol-live@example.com');
  dave = await registerMember(t, 'dave-live@example.com');
  support = await operatorToken(t, 'support-live', 'support');
});
afterAll(async () => {
  // A channel still open does not hold the server up: closing it ends every stream.
  const open = await openStream(baseUrl, carol);
  expect((await open.next()).event).toBe('ready');
  await t.close();
  await open.ended;
  for (const stream of opened) stream.close();
});

async function open(token: string, lastEventId?: string): Promise<SseStream> {
  const stream = await openStream(baseUrl, token, lastEventId);
  opened.push(stream);
  return stream;
}

async function memberIdOf(email: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(t.testDatabase.database.db, sql`select id from members where email = ${email}`);
  return row!.id;
}

async function sendFeedback(token: string, title: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/common/push_feedback',
    headers: { authorization: token, lang: 'EN' },
    payload: { title, content: 'please answer' },
  });
  return response.json<{ data: { id: string } }>().data.id;
}

async function reply(feedbackId: string, text: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/feedback/${feedbackId}/reply`,
    headers: { authorization: `Bearer ${support}`, lang: 'EN' },
    payload: { reply: text },
  });
  expect(response.json()).toMatchObject({ code: 200 });
}

function parsed(frame: SseFrame) {
  return { id: frame.id, event: frame.event, data: JSON.parse(frame.data) as { data: unknown } };
}

describe('the live channel', () => {
  it('answers 401 (an envelope, no stream) without a live session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/events', headers: { lang: 'EN' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 401, message: 'Your session has ended, please log in again', data: null });
  });

  it('sends the reply to its member only, live, with the security headers', async () => {
    const carols = await open(carol);
    const daves = await open(dave);
    expect(carols.status).toBe(200);
    expect(carols.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(carols.headers.get('cache-control')).toBe('no-store');
    expect(carols.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(carols.headers.get('x-content-type-options')).toBe('nosniff');
    const ready = await carols.next();
    expect(ready.event).toBe('ready');
    expect((await daves.next()).event).toBe('ready');

    const feedbackId = await sendFeedback(carol, 'Where is my deposit?');
    await reply(feedbackId, 'Credited now.');
    const event = parsed(await carols.next());
    expect(event.event).toBe('event');
    expect(event.data.data).toEqual({ kind: 'feedback.replied', feedbackId, title: 'Where is my deposit?' });

    // Dave's next frame is his own event, not Carol's.
    const daveFeedback = await sendFeedback(dave, 'Mine');
    await reply(daveFeedback, 'Yours.');
    expect(parsed(await daves.next()).data.data).toEqual({ kind: 'feedback.replied', feedbackId: daveFeedback, title: 'Mine' });
    carols.close();
    daves.close();
  });

  it('delivers what happened while it was away when it resumes from its last event id', async () => {
    const memberId = await memberIdOf('carol-live@example.com');
    const first = await open(carol);
    await first.next();
    const feedbackId = await sendFeedback(carol, 'Before the drop');
    await reply(feedbackId, 'Seen.');
    const last = await first.next();
    first.close();
    await first.ended;

    // While the app is away: a reply and two withdrawal events, committed with their changes.
    const missedFeedback = await sendFeedback(carol, 'During the drop');
    await reply(missedFeedback, 'Answered while you were away.');
    await t.services.ledger.transaction(async (tx) => {
      await t.services.memberEvents.publish(tx, memberId, {
        kind: 'withdrawal.approved',
        withdrawalId: 'w-1',
        amount: '12.5000',
      });
    });
    await t.services.ledger.transaction(async (tx) => {
      await t.services.memberEvents.publish(tx, memberId, { kind: 'withdrawal.paid', withdrawalId: 'w-1', amount: '12.5000' });
    });
    // A rolled-back change leaves no event behind.
    await expect(
      t.services.ledger.transaction(async (tx) => {
        await t.services.memberEvents.publish(tx, memberId, {
          kind: 'withdrawal.refunded',
          withdrawalId: 'w-1',
          amount: '12.5000',
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    const resumed = await open(carol, last.id);
    expect(parsed(await resumed.next())).toMatchObject({ event: 'ready', data: { cursor: last.id } });
    const missed = [parsed(await resumed.next()), parsed(await resumed.next()), parsed(await resumed.next())];
    expect(missed.map((frame) => frame.data.data)).toEqual([
      { kind: 'feedback.replied', feedbackId: missedFeedback, title: 'During the drop' },
      { kind: 'withdrawal.approved', withdrawalId: 'w-1', amount: '12.5000' },
      { kind: 'withdrawal.paid', withdrawalId: 'w-1', amount: '12.5000' },
    ]);
    expect(missed.map((frame) => BigInt(frame.id!) > BigInt(last.id!))).toEqual([true, true, true]);

    // A fresh channel (no id) starts from now: nothing old is replayed.
    const fresh = await open(carol);
    expect(parsed(await fresh.next())).toMatchObject({ event: 'ready', data: { cursor: missed[2]!.id } });
    const later = await sendFeedback(carol, 'After');
    await reply(later, 'Fine.');
    expect(parsed(await fresh.next()).data.data).toEqual({ kind: 'feedback.replied', feedbackId: later, title: 'After' });
    expect(parsed(await resumed.next()).data.data).toEqual({ kind: 'feedback.replied', feedbackId: later, title: 'After' });
    resumed.close();
    fresh.close();
  });

  it('ends when its session ends (log-out)', async () => {
    const stream = await open(dave);
    await stream.next();
    const other = await registerMember(t, 'erin-live@example.com');
    const others = await open(other);
    await others.next();
    const out = await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: { authorization: dave, lang: 'EN' } });
    expect(out.json()).toMatchObject({ code: 200 });
    await t.services.memberEvents.checkSessionsNow();
    await stream.ended;
    await expect(stream.next()).rejects.toThrow('the stream ended');
    // Another member's channel stays open.
    const erinsFeedback = await sendFeedback(other, 'Still here?');
    await reply(erinsFeedback, 'Yes.');
    expect(parsed(await others.next()).data.data).toEqual({
      kind: 'feedback.replied',
      feedbackId: erinsFeedback,
      title: 'Still here?',
    });
    others.close();
  });
});

describe('bounds', () => {
  /** A sink that records what it is given and says how far behind its reader is. */
  function fakeSink(backlogBytes: (written: string[]) => number) {
    const written: string[] = [];
    let resolveClosed: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => {
      resolveClosed = resolve;
    });
    return {
      written,
      closed,
      sink: {
        write: (text: string) => void written.push(text),
        bufferedBytes: () => backlogBytes(written),
        close: () => resolveClosed(),
      },
    };
  }

  it('closes a channel whose reader falls behind instead of buffering more, and keeps five per member', async () => {
    const memberId = await memberIdOf('carol-live@example.com');
    const [session] = await queryRows<{ id: string }>(
      t.testDatabase.database.db,
      sql`select id from member_sessions where member_id = ${memberId}::uuid and revoked_at is null limit 1`,
    );
    // Behind as soon as anything beyond the `ready` frame was written.
    const slow = fakeSink((written) => (written.length > 1 ? t.services.memberEvents.options.maxBufferedBytes + 1 : 0));
    const endSlow = await t.services.memberEvents.open(
      memberId,
      { holderId: memberId, sessionId: session!.id },
      undefined,
      slow.sink,
    );
    const feedbackId = await sendFeedback(carol, 'Slow reader');
    await reply(feedbackId, 'Catch up later.');
    await slow.closed;
    // It got the event it was sent, then was closed; the app resumes from that id.
    expect(slow.written.filter((text) => text.startsWith('id: '))).toHaveLength(1);
    endSlow();

    const sinks = Array.from({ length: 6 }, () => fakeSink(() => 0));
    const ends: (() => void)[] = [];
    for (const { sink } of sinks)
      ends.push(await t.services.memberEvents.open(memberId, { holderId: memberId, sessionId: session!.id }, undefined, sink));
    await sinks[0]!.closed;
    for (const end of ends) end();
  });
});

describe('retention', () => {
  it('removes events older than a week and keeps the rest', async () => {
    const db = t.testDatabase.database.db;
    const [before] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from member_events`);
    const [oldest] = await queryRows<{ id: string }>(db, sql`select min(id)::text as id from member_events`);
    await queryRows(db, sql`update member_events set created_at = now() - interval '8 days' where id = ${oldest!.id}::bigint`);
    expect(await t.services.memberEvents.removeExpired()).toBe(1);
    const [after] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from member_events`);
    expect(after!.n).toBe(before!.n - 1);
  });
});
