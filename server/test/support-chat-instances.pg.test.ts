import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@custos/contract';
import { buildApp } from '../src/app.js';
import { createServices } from '../src/container.js';
import { openPostgres, type Database } from '../src/db/client.js';
import { createLogger } from '../src/lib/logger.js';
import { operatorToken, registerMember } from './support/members.js';
import { openStream, type SseStream } from './support/sse.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Customer service on two server instances over one PostgreSQL (decision 029): the member on one,
 * the agent on the other; messages and receipts cross through the database, never process memory.
 */

const CONSOLE_EVENTS = '/api/admin/support/events';

let a: TestApp;
let aUrl: string;
let bDatabase: Database;
let b: FastifyInstance;
let bUrl: string;
let member: string;
let agent: string;
let conversationId: string;
const opened: SseStream[] = [];

beforeAll(async () => {
  a = await createTestApp();
  aUrl = await a.app.listen({ port: 0, host: '127.0.0.1' });
  bDatabase = await openPostgres(a.testDatabase.url!, 5);
  const logger = createLogger('silent');
  b = await buildApp({ config: a.config, database: bDatabase, services: createServices(bDatabase, a.config, logger), logger });
  bUrl = await b.listen({ port: 0, host: '127.0.0.1' });
  member = await registerMember(a, 'chat-instances@example.com');
  agent = await operatorToken(a, 'support-instances', 'support');
});
afterAll(async () => {
  for (const stream of opened) stream.close();
  await b.close();
  await bDatabase.close();
  await a.close();
});

async function memberWrites(text: string): Promise<ChatMessage> {
  const response = await fetch(`${aUrl}/api/support/chat/messages`, {
    method: 'POST',
    headers: { authorization: member, lang: 'EN', 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  const body = (await response.json()) as { code: number; data: ChatMessage };
  expect(body.code).toBe(200);
  return body.data;
}

async function agentWrites(text: string): Promise<ChatMessage> {
  const response = await fetch(`${bUrl}/api/admin/support/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${agent}`, lang: 'EN', 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  const body = (await response.json()) as { code: number; data: ChatMessage };
  expect(body.code).toBe(200);
  return body.data;
}

interface Frame {
  id: string | undefined;
  data: { kind: string; messageId?: string; conversationId?: string; preview?: string };
}
async function nextOf(stream: SseStream, kind: string): Promise<Frame> {
  for (;;) {
    const frame = await stream.next();
    if (frame.event !== 'event') continue;
    const parsed = { id: frame.id, data: (JSON.parse(frame.data) as { data: Frame['data'] }).data };
    if (parsed.data.kind === kind) return parsed;
  }
}

describe('customer service across instances', () => {
  it('a member writes on A, the agent’s channel on B hears it', async () => {
    const inbox = await openStream(bUrl, `Bearer ${agent}`, undefined, CONSOLE_EVENTS);
    opened.push(inbox);
    expect(inbox.status).toBe(200);
    expect((await inbox.next()).event).toBe('ready');
    const written = await memberWrites('Hello from instance A');
    conversationId = written.conversationId;
    const heard = await nextOf(inbox, 'chat.message');
    expect(heard.data).toMatchObject({ conversationId, messageId: written.id, sender: 'member' });
    inbox.close();
  });

  it('the agent answers on B, the member’s channel on A hears it', async () => {
    const channel = await openStream(aUrl, member);
    opened.push(channel);
    expect((await channel.next()).event).toBe('ready');
    const answer = await agentWrites('Hello from instance B');
    const heard = await nextOf(channel, 'chat.message');
    expect(heard.data).toMatchObject({ conversationId, messageId: answer.id, preview: 'Hello from instance B' });
    channel.close();
  });

  it('the console resumes with Last-Event-ID after a drop and misses nothing', async () => {
    const first = await openStream(bUrl, `Bearer ${agent}`, undefined, CONSOLE_EVENTS);
    opened.push(first);
    const ready = await first.next();
    expect(ready.event).toBe('ready');
    const before = await memberWrites('Before the drop');
    const seen = await nextOf(first, 'chat.message');
    expect(seen.data.messageId).toBe(before.id);
    first.close();
    await first.ended;
    // Written while no console listened, on the other instance.
    const missedOne = await memberWrites('While away 1');
    const missedTwo = await memberWrites('While away 2');
    const resumed = await openStream(aUrl, `Bearer ${agent}`, seen.id, CONSOLE_EVENTS);
    opened.push(resumed);
    expect((await resumed.next()).event).toBe('ready');
    expect((await nextOf(resumed, 'chat.message')).data.messageId).toBe(missedOne.id);
    expect((await nextOf(resumed, 'chat.message')).data.messageId).toBe(missedTwo.id);
    resumed.close();
  });

  it('the member resumes with Last-Event-ID too', async () => {
    const first = await openStream(aUrl, member);
    opened.push(first);
    const ready = JSON.parse((await first.next()).data) as { cursor: string };
    first.close();
    await first.ended;
    const missed = await agentWrites('Sent while the app was offline');
    const resumed = await openStream(bUrl, member, ready.cursor);
    opened.push(resumed);
    expect((await resumed.next()).event).toBe('ready');
    expect((await nextOf(resumed, 'chat.message')).data.messageId).toBe(missed.id);
    resumed.close();
  });
});
