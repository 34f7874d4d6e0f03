import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUOTE_STREAMS_PER_MEMBER } from '../src/modules/contracts/quote-stream.js';
import { createLogger } from '../src/lib/logger.js';
import { ChannelsFullError, DEFAULT_CHANNEL_OPTIONS, type ChannelSink } from '../src/modules/notifications/event-hub.js';
import { MemberEventsRepository } from '../src/modules/notifications/member-events.repository.js';
import { MemberEventsService } from '../src/modules/notifications/member-events.service.js';
import { EURUSD_SETTINGS, contractProduct, setQuote } from './support/contracts.js';
import { operatorToken, registerMember } from './support/members.js';
import { openStream, type SseStream } from './support/sse.js';
import { createTestApp, type TestApp } from './support/test-app.js';

// Decision 054: live channels are capped per holder (member, operator), never per topic or per
// instance alone, so one holder's extra streams only ever push out that holder's own oldest stream;
// and a stream whose session ended closes at the next session check.

const OTC_EVENTS = '/api/admin/otc/events';
const QUOTES = '/api/contracts/quotes';

let t: TestApp;
let baseUrl: string;
let finance: string;
let productId: string;
const opened: SseStream[] = [];

beforeAll(async () => {
  // A long heartbeat: the tests run the session checks themselves.
  t = await createTestApp({}, { channelOptions: { heartbeatMs: 600_000 } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  finance = await operatorToken(t, 'holders-finance', 'finance');
  productId = await contractProduct(t, finance, 'EUR/USD', EURUSD_SETTINGS, 1);
  await setQuote(t, finance, productId, '1.08500', '1.08512');
}, 120_000);
afterAll(async () => {
  for (const stream of opened) stream.close();
  await t.services.contracts.watcher.stop();
  await t.close();
});

async function open(token: string, path: string): Promise<SseStream> {
  const stream = await openStream(baseUrl, token, undefined, path);
  opened.push(stream);
  return stream;
}

/** The next frame of the stream that is not the console's `ready`. */
async function nextEvent(stream: SseStream, event: string): Promise<{ data: Record<string, unknown> }> {
  for (;;) {
    const frame = await stream.next();
    if (frame.event === event) return JSON.parse(frame.data) as { data: Record<string, unknown> };
  }
}

async function publishOtcChat(messageId: string): Promise<void> {
  await t.services.ledger.transaction(async (tx) => {
    await t.services.otcOperatorEvents.publishOtc(tx, { kind: 'otc.chat', orderId: 'order-holders', messageId });
  });
}

/** A sink that records whether it was closed; its reader never falls behind. */
function countingSink(): { sink: ChannelSink; closed: () => boolean } {
  let closed = false;
  return {
    sink: {
      write: () => undefined,
      bufferedBytes: () => 0,
      close: () => {
        closed = true;
      },
    },
    closed: () => closed,
  };
}

async function memberIdAndSession(token: string): Promise<{ memberId: string; sessionId: string }> {
  const context = await t.services.auth.authenticate(token);
  return { memberId: context.member.id, sessionId: context.sessionId };
}

describe('console streams are capped per operator', () => {
  it('one operator’s extra streams close only that operator’s oldest, never another operator’s', async () => {
    const anna = await operatorToken(t, 'holders-anna', 'support');
    const bruno = await operatorToken(t, 'holders-bruno', 'support');
    const annas = await open(`Bearer ${anna}`, OTC_EVENTS);
    expect(annas.status).toBe(200);
    expect((await annas.next()).event).toBe('ready');

    // Bruno opens one more than an operator may hold (5).
    const brunos: SseStream[] = [];
    for (let stream = 0; stream < 6; stream += 1) {
      const next = await open(`Bearer ${bruno}`, OTC_EVENTS);
      expect((await next.next()).event).toBe('ready');
      brunos.push(next);
    }
    // Bruno's sixth pushed out Bruno's first …
    await brunos[0]!.ended;
    // … and Anna still hears the OTC desk, as do Bruno's five.
    await publishOtcChat('message-after-bruno');
    expect((await nextEvent(annas, 'event')).data).toEqual({
      kind: 'otc.chat',
      orderId: 'order-holders',
      messageId: 'message-after-bruno',
    });
    for (const stream of brunos.slice(1)) {
      expect((await nextEvent(stream, 'event')).data).toMatchObject({ messageId: 'message-after-bruno' });
    }
    for (const stream of [annas, ...brunos]) stream.close();
  });

  it('a logged-out operator’s stream closes at the next session check; another operator’s stays', async () => {
    const carla = await operatorToken(t, 'holders-carla', 'support');
    const dmitri = await operatorToken(t, 'holders-dmitri', 'support');
    const carlas = await open(`Bearer ${carla}`, OTC_EVENTS);
    const dmitris = await open(`Bearer ${dmitri}`, OTC_EVENTS);
    expect((await carlas.next()).event).toBe('ready');
    expect((await dmitris.next()).event).toBe('ready');
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/logout',
      headers: { authorization: `Bearer ${carla}`, lang: 'EN' },
    });
    expect(out.json()).toMatchObject({ code: 200 });
    await t.services.otcOperatorEvents.checkSessionsNow();
    await carlas.ended;
    await publishOtcChat('message-after-logout');
    expect((await nextEvent(dmitris, 'event')).data).toMatchObject({ messageId: 'message-after-logout' });
    dmitris.close();
  });
});

describe('quote streams are capped per member', () => {
  it('one member’s 2,001 quote streams never lock another member out; only the holder’s own oldest give way', async () => {
    const greedy = await registerMember(t, 'holders-greedy@example.com');
    const holder = await memberIdAndSession(greedy);
    const sinks = Array.from({ length: 2001 }, () => countingSink());
    const ends = sinks.map(({ sink }) => t.services.contractQuotes.open(holder, sink));
    // Only the member's newest five are kept.
    expect(sinks.map((sink) => sink.closed()).lastIndexOf(true)).toBe(sinks.length - 1 - MAX_QUOTE_STREAMS_PER_MEMBER);
    expect(sinks.slice(-MAX_QUOTE_STREAMS_PER_MEMBER).every((sink) => !sink.closed())).toBe(true);

    const other = await registerMember(t, 'holders-other@example.com');
    const others = await open(other, QUOTES);
    expect(others.status).toBe(200);
    expect((await nextEvent(others, 'quote')) as unknown).toMatchObject({ productId, bid: '1.08500', ask: '1.08512' });
    others.close();
    for (const end of ends) end();
  });

  it('a logged-out member’s quote stream closes at the next session check; another member’s keeps its quotes', async () => {
    const leaving = await registerMember(t, 'holders-leaving@example.com');
    const staying = await registerMember(t, 'holders-staying@example.com');
    const leavings = await open(leaving, QUOTES);
    const stayings = await open(staying, QUOTES);
    await nextEvent(leavings, 'quote');
    await nextEvent(stayings, 'quote');
    const out = await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: { authorization: leaving, lang: 'EN' } });
    expect(out.json()).toMatchObject({ code: 200 });
    await t.services.contractQuotes.checkSessionsNow();
    await leavings.ended;
    await expect(leavings.next()).rejects.toThrow('the stream ended');
    await setQuote(t, finance, productId, '1.08520', '1.08532');
    expect((await nextEvent(stayings, 'quote')) as unknown).toMatchObject({ productId, bid: '1.08520', ask: '1.08532' });
    stayings.close();
  });
});

describe('the instance-wide bound', () => {
  it('only refuses new holders when full: it never closes an open channel, and a holder at its cap still swaps its own', async () => {
    const database = t.testDatabase.database;
    const hub = new MemberEventsService(database, new MemberEventsRepository(database.db), createLogger('silent'), {
      ...DEFAULT_CHANNEL_OPTIONS,
      heartbeatMs: 600_000,
      maxChannelsPerHolder: 2,
      maxChannels: 3,
    });
    await hub.start();
    try {
      const first = await memberIdAndSession(await registerMember(t, 'holders-bound-1@example.com'));
      const second = await memberIdAndSession(await registerMember(t, 'holders-bound-2@example.com'));
      const third = await memberIdAndSession(await registerMember(t, 'holders-bound-3@example.com'));
      const holder = (who: { memberId: string; sessionId: string }) => ({ holderId: who.memberId, sessionId: who.sessionId });
      const firsts = [countingSink(), countingSink(), countingSink()];
      const seconds = countingSink();
      await hub.open(first.memberId, holder(first), undefined, firsts[0]!.sink);
      await hub.open(first.memberId, holder(first), undefined, firsts[1]!.sink);
      await hub.open(second.memberId, holder(second), undefined, seconds.sink);
      expect(hub.openChannels).toBe(3);
      // Full: a new holder is refused, and nobody's channel is closed to make room.
      await expect(hub.open(third.memberId, holder(third), undefined, countingSink().sink)).rejects.toBeInstanceOf(
        ChannelsFullError,
      );
      expect([firsts[0]!.closed(), firsts[1]!.closed(), seconds.closed()]).toEqual([false, false, false]);
      // A holder at its own cap swaps its own oldest, full or not.
      await hub.open(first.memberId, holder(first), undefined, firsts[2]!.sink);
      expect(firsts.map((sink) => sink.closed())).toEqual([true, false, false]);
      expect(seconds.closed()).toBe(false);
      expect(hub.openChannels).toBe(3);
    } finally {
      await hub.stop();
    }
  });
});
