import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatHistory, ChatMessage } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { operatorToken, registerMember } from './support/members.js';
import { openStream, type SseStream } from './support/sse.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The smallest real PNG (1×1, transparent). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestApp;
let baseUrl: string;
let alice: string;
let bob: string;
let support: string;
let support2: string;
let reviewer: string;
let finance: string;
const opened: SseStream[] = [];

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  alice = await registerMember(t, 'alice-chat@example.com');
  bob = await registerMember(t, 'bob-chat@example.com');
  support = await operatorToken(t, 'support-chat', 'support');
  support2 = await operatorToken(t, 'support-chat-2', 'support');
  reviewer = await operatorToken(t, 'reviewer-chat', 'reviewer');
  finance = await operatorToken(t, 'finance-chat', 'finance');
});
afterAll(async () => {
  for (const stream of opened) stream.close();
  await t.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function memberCall(method: Method, url: string, token: string, payload?: object, lang = 'EN') {
  return t.app.inject({ method, url, headers: { authorization: token, lang }, ...(payload ? { payload } : {}) });
}
function agentCall(method: Method, url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
}
async function uploadId(token: string, purpose: 'chat' | 'feedback' = 'chat'): Promise<string> {
  const response = await memberCall('POST', '/api/upload/image', token, { purpose, contentBase64: TINY_PNG.toString('base64') });
  expect(response.json()).toMatchObject({ code: 200 });
  return response.json<{ data: { id: string } }>().data.id;
}
async function send(token: string, body: object): Promise<ChatMessage> {
  const response = await memberCall('POST', '/api/support/chat/messages', token, body);
  expect(response.json()).toMatchObject({ code: 200 });
  return response.json<{ data: ChatMessage }>().data;
}
async function history(token: string, query = ''): Promise<ChatHistory> {
  const response = await memberCall('GET', `/api/support/chat/messages${query}`, token);
  expect(response.json()).toMatchObject({ code: 200 });
  return response.json<{ data: ChatHistory }>().data;
}
async function unread(token: string): Promise<number> {
  return (await memberCall('GET', '/api/support/chat/unread', token)).json<{ data: { unread: number } }>().data.unread;
}
async function messageCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.testDatabase.database.db, sql`select count(*)::int as n from chat_messages`);
  return row!.n;
}
interface InboxData {
  items: {
    id: string;
    email: string;
    unread: number;
    assignedOperatorName: string | null;
    lastMessage: { text: string | null } | null;
  }[];
  unreadTotal: number;
}
async function inbox(token: string, filter = 'all'): Promise<InboxData> {
  const response = await agentCall('GET', `/api/admin/support/conversations?filter=${filter}`, token);
  expect(response.json()).toMatchObject({ code: 200 });
  return response.json<{ data: InboxData }>().data;
}

let aliceConversation: string;
let aliceFirst: ChatMessage;

describe('a member and their conversation', () => {
  it('has none before the first message; the first message makes it', async () => {
    expect(await history(alice)).toMatchObject({ conversationId: null, items: [], nextBefore: null });
    aliceFirst = await send(alice, { text: '  My deposit has not arrived  ' });
    expect(aliceFirst).toMatchObject({ sender: 'member', text: 'My deposit has not arrived', hasImage: false, agentName: null });
    const page = await history(alice);
    aliceConversation = page.conversationId!;
    expect(page.items.map((item) => item.text)).toEqual(['My deposit has not arrived']);
  });

  it('never lets another member read or touch it, even by guessing ids', async () => {
    await send(bob, { text: 'Bob asks something else' });
    const bobs = await history(bob);
    expect(bobs.conversationId).not.toBe(aliceConversation);
    expect(bobs.items.map((item) => item.text)).toEqual(['Bob asks something else']);
    // Alice's message id through Bob's image call, and Alice's conversation through paging: nothing of hers.
    expect((await memberCall('GET', `/api/support/chat/image/${aliceFirst.id}`, bob)).statusCode).toBe(404);
    const paged = await history(bob, `?before=${Number(aliceFirst.id) + 1000}`);
    expect(paged.items.every((item) => item.conversationId === bobs.conversationId)).toBe(true);
    // Reading "up to" Alice's message moves nothing of Alice's.
    await memberCall('POST', '/api/support/chat/read', bob, { upTo: aliceFirst.id });
    expect((await history(alice)).state.memberReadUpTo).toBe('0');
    // A member's token is no operator's, and the console's calls refuse it.
    expect((await memberCall('GET', '/api/admin/support/conversations', alice)).statusCode).toBe(401);
    // No session at all.
    expect((await t.app.inject({ method: 'GET', url: '/api/support/chat/messages' })).statusCode).toBe(401);
  });

  it('refuses operators without the support permission', async () => {
    for (const token of [reviewer, finance]) {
      expect((await agentCall('GET', '/api/admin/support/conversations', token)).statusCode).toBe(403);
      expect((await agentCall('GET', `/api/admin/support/conversations/${aliceConversation}/messages`, token)).statusCode).toBe(
        403,
      );
      const reply = await agentCall('POST', `/api/admin/support/conversations/${aliceConversation}/messages`, token, {
        text: 'x',
      });
      expect(reply.statusCode).toBe(403);
      expect((await agentCall('GET', '/api/admin/support/events', token)).statusCode).toBe(403);
    }
    expect(await messageCount()).toBe(2);
  });
});

describe('validation', () => {
  it('refuses empty, over-long, both-or-neither messages with a localised reason and stores nothing', async () => {
    const before = await messageCount();
    const empty = await memberCall('POST', '/api/support/chat/messages', alice, { text: '   ' });
    expect(empty.json()).toEqual({ code: 400, message: 'please enter text', data: null });
    const long = await memberCall('POST', '/api/support/chat/messages', alice, { text: 'x'.repeat(1001) });
    expect(long.json()).toEqual({ code: 400, message: 'text: too long', data: null });
    const neither = await memberCall('POST', '/api/support/chat/messages', alice, {});
    expect(neither.json()).toEqual({ code: 400, message: 'text: send either text or one image', data: null });
    const image = await uploadId(alice);
    const both = await memberCall('POST', '/api/support/chat/messages', alice, { text: 'hi', imageId: image });
    expect(both.json()).toEqual({ code: 400, message: 'text: send either text or one image', data: null });
    const chinese = await memberCall('POST', '/api/support/chat/messages', alice, { text: 'x'.repeat(1001) }, 'CN');
    expect(chinese.json<{ message: string }>().message).not.toContain('too long');
    // Exactly 1000 characters is fine.
    await send(alice, { text: 'y'.repeat(1000) });
    expect(await messageCount()).toBe(before + 1);
  });

  it('takes only the member’s own unused chat images, checked by their bytes', async () => {
    const before = await messageCount();
    const fake = await memberCall('POST', '/api/upload/image', alice, {
      purpose: 'chat',
      contentBase64: Buffer.from('<script>alert(1)</script>').toString('base64'),
    });
    expect(fake.json()).toEqual({ code: 400, message: 'Only JPEG, PNG or WebP images are accepted', data: null });
    const bobs = await uploadId(bob);
    const foreign = await memberCall('POST', '/api/support/chat/messages', alice, { imageId: bobs });
    expect(foreign.json()).toEqual({
      code: 400,
      message: 'The image is missing or is not yours; please upload it again',
      data: null,
    });
    const feedbackImage = await uploadId(alice, 'feedback');
    const wrongPurpose = await memberCall('POST', '/api/support/chat/messages', alice, { imageId: feedbackImage });
    expect(wrongPurpose.json()).toMatchObject({ code: 400 });
    expect(await messageCount()).toBe(before);

    const mine = await uploadId(alice);
    const sent = await send(alice, { imageId: mine });
    expect(sent).toMatchObject({ hasImage: true, text: null });
    const again = await memberCall('POST', '/api/support/chat/messages', alice, { imageId: mine });
    expect(again.json()).toMatchObject({ code: 400 });
    const read = await memberCall('GET', `/api/support/chat/image/${sent.id}`, alice);
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.headers['cache-control']).toBe('private, no-store');
    expect(Buffer.from(read.rawPayload)).toEqual(TINY_PNG);
    expect((await memberCall('GET', `/api/support/chat/image/${sent.id}`, bob)).statusCode).toBe(404);
  });
});

describe('read state and unread counts', () => {
  it('follows both sides: delivered when fetched, read when shown, unread counts on both', async () => {
    const carol = await registerMember(t, 'carol-chat@example.com');
    await send(carol, { text: 'First' });
    const second = await send(carol, { text: 'Second' });
    const carolConversation = (await history(carol)).conversationId!;
    let item = (await inbox(support)).items.find((row) => row.id === carolConversation)!;
    expect(item).toMatchObject({ email: 'carol-chat@example.com', unread: 2, lastMessage: { text: 'Second' } });
    expect((await inbox(support, 'unread')).items.map((row) => row.id)).toContain(carolConversation);

    // The console fetches the newest page: delivered to the agents (two ticks), not read yet.
    const seen = await agentCall('GET', `/api/admin/support/conversations/${carolConversation}/messages`, support);
    expect(seen.json<{ data: ChatHistory }>().data.state).toMatchObject({ agentsDeliveredUpTo: second.id, agentsReadUpTo: '0' });
    expect((await history(carol)).state).toMatchObject({ agentsDeliveredUpTo: second.id, agentsReadUpTo: '0' });

    // Shown to an agent: read; the unread count is gone.
    const read = await agentCall('POST', `/api/admin/support/conversations/${carolConversation}/read`, support, {
      upTo: second.id,
    });
    expect(read.json()).toMatchObject({ code: 200, data: { agentsReadUpTo: second.id } });
    item = (await inbox(support)).items.find((row) => row.id === carolConversation)!;
    expect(item.unread).toBe(0);
    expect((await inbox(support, 'unread')).items.map((row) => row.id)).not.toContain(carolConversation);

    // The agent answers: the member has one unread, the answer carries no console user name.
    const answer = await agentCall('POST', `/api/admin/support/conversations/${carolConversation}/messages`, support, {
      text: 'We are looking into it',
    });
    expect(answer.json()).toMatchObject({ code: 200, data: { sender: 'agent', agentName: 'support-chat' } });
    const answerId = answer.json<{ data: ChatMessage }>().data.id;
    expect(await unread(carol)).toBe(1);
    const page = await history(carol);
    expect(page.items.at(-1)).toMatchObject({ sender: 'agent', agentName: null, text: 'We are looking into it' });
    expect(page.state).toMatchObject({ memberDeliveredUpTo: answerId, memberReadUpTo: '0' });
    // A read mark past the newest agent message stops at it; it never goes back.
    await memberCall('POST', '/api/support/chat/read', carol, { upTo: '9999999999' });
    expect((await history(carol)).state.memberReadUpTo).toBe(answerId);
    await memberCall('POST', '/api/support/chat/read', carol, { upTo: '1' });
    expect((await history(carol)).state.memberReadUpTo).toBe(answerId);
    expect(await unread(carol)).toBe(0);

    // The member's live channel heard the answer and the receipts, in order.
    const [events] = await queryRows<{ kinds: string[] }>(
      t.testDatabase.database.db,
      sql`select array_agg(e.kind order by e.id) as kinds from member_events e join members m on m.id = e.member_id
          where m.email = 'carol-chat@example.com'`,
    );
    expect(events!.kinds).toEqual(['chat.read', 'chat.read', 'chat.message']);
  });

  it('pages history back by cursor, oldest first within a page', async () => {
    const dave = await registerMember(t, 'dave-chat@example.com');
    const sent: ChatMessage[] = [];
    for (const text of ['one', 'two', 'three', 'four', 'five']) sent.push(await send(dave, { text }));
    const newest = await history(dave, '?limit=2');
    expect(newest.items.map((item) => item.text)).toEqual(['four', 'five']);
    const older = await history(dave, `?limit=2&before=${newest.nextBefore}`);
    expect(older.items.map((item) => item.text)).toEqual(['two', 'three']);
    const oldest = await history(dave, `?limit=2&before=${older.nextBefore}`);
    expect(oldest.items.map((item) => item.text)).toEqual(['one']);
    expect(oldest.nextBefore).toBeNull();
    const bad = await memberCall('GET', '/api/support/chat/messages?before=abc', dave);
    expect(bad.json()).toMatchObject({ code: 400 });
  });
});

describe('flood limit', () => {
  it('refuses the 21st message within a minute, in the member’s language, and stores nothing', async () => {
    const erin = await registerMember(t, 'erin-chat@example.com');
    for (let index = 0; index < 20; index += 1) await send(erin, { text: `message ${index}` });
    const before = await messageCount();
    const flood = await memberCall('POST', '/api/support/chat/messages', erin, { text: 'one more' });
    expect(flood.statusCode).toBe(429);
    expect(flood.json<{ message: string }>().message).toMatch(
      /^You are sending messages too quickly, please try again in \d+ s$/,
    );
    const chinese = await memberCall('POST', '/api/support/chat/messages', erin, { text: 'one more' }, 'CN');
    expect(chinese.json<{ message: string }>().message).toMatch(/^发送消息过于频繁，请 \d+ 秒后再试$/);
    expect(await messageCount()).toBe(before);
  });
});

describe('agents', () => {
  it('reply with an image checked by its bytes; the member reads it, nobody else does', async () => {
    const fake = await agentCall('POST', `/api/admin/support/conversations/${aliceConversation}/messages`, support, {
      imageBase64: Buffer.from('GIF89a not really').toString('base64'),
    });
    expect(fake.json()).toEqual({ code: 400, message: 'Only JPEG, PNG or WebP images are accepted', data: null });
    const sent = await agentCall('POST', `/api/admin/support/conversations/${aliceConversation}/messages`, support, {
      imageBase64: TINY_PNG.toString('base64'),
    });
    const message = sent.json<{ data: ChatMessage }>().data;
    expect(message).toMatchObject({ sender: 'agent', hasImage: true });
    expect((await memberCall('GET', `/api/support/chat/image/${message.id}`, alice)).statusCode).toBe(200);
    expect((await memberCall('GET', `/api/support/chat/image/${message.id}`, bob)).statusCode).toBe(404);
    const forAgent = await agentCall('GET', `/api/admin/support/conversations/${aliceConversation}/image/${message.id}`, support);
    expect(Buffer.from(forAgent.rawPayload)).toEqual(TINY_PNG);
    const unknown = await agentCall(
      'POST',
      `/api/admin/support/conversations/00000000-0000-4000-8000-000000000000/messages`,
      support,
      {
        text: 'nobody',
      },
    );
    expect(unknown.statusCode).toBe(404);
  });

  it('assign conversations (audited) and see the member’s context', async () => {
    const mine = await agentCall('POST', `/api/admin/support/conversations/${aliceConversation}/assign`, support, { to: 'me' });
    expect(mine.json()).toMatchObject({ code: 200, data: { assignedOperatorName: 'support-chat' } });
    expect((await inbox(support, 'mine')).items.map((row) => row.id)).toEqual([aliceConversation]);
    expect((await inbox(support2, 'mine')).items).toEqual([]);
    expect((await inbox(support2, 'unassigned')).items.map((row) => row.id)).not.toContain(aliceConversation);
    const detail = await agentCall('GET', `/api/admin/support/conversations/${aliceConversation}`, support2);
    expect(detail.json()).toMatchObject({
      code: 200,
      data: {
        conversation: { id: aliceConversation, email: 'alice-chat@example.com' },
        member: { email: 'alice-chat@example.com', level: 0, recentOrders: [] },
      },
    });
    const balances = detail.json<{ data: { member: { balances: { asset: string; available: string }[] } } }>().data.member
      .balances;
    expect(balances.find((row) => row.asset === 'USDT')?.available).toMatch(/^\d+\.\d{4}$/);
    await agentCall('POST', `/api/admin/support/conversations/${aliceConversation}/assign`, support2, { to: 'nobody' });
    const audits = await queryRows<{ action: string; after: { assignedOperatorId: string | null } }>(
      t.testDatabase.database.db,
      sql`select action, after from audit_log where target_id = ${aliceConversation} order by created_at`,
    );
    expect(audits.map((row) => row.action)).toEqual(['support.conversation_assigned', 'support.conversation_assigned']);
    expect(audits[1]!.after.assignedOperatorId).toBeNull();
  });

  it('manage canned replies, every change audited', async () => {
    const bad = await agentCall('POST', '/api/admin/support/canned-replies', support, { title: '', text: 'x' });
    expect(bad.json()).toMatchObject({ code: 400, message: 'please enter title' });
    const created = await agentCall('POST', '/api/admin/support/canned-replies', support, {
      title: 'Greeting',
      text: 'Hello, how can we help?',
    });
    const id = created.json<{ data: { id: string } }>().data.id;
    const changed = await agentCall('PUT', `/api/admin/support/canned-replies/${id}`, support, {
      title: 'Greeting',
      text: 'Hello! How can we help you today?',
    });
    expect(changed.json()).toMatchObject({ code: 200, data: { text: 'Hello! How can we help you today?' } });
    const list = await agentCall('GET', '/api/admin/support/canned-replies', support2);
    expect(list.json()).toMatchObject({ data: { items: [{ id, title: 'Greeting' }] } });
    expect((await agentCall('GET', '/api/admin/support/canned-replies', reviewer)).statusCode).toBe(403);
    await agentCall('DELETE', `/api/admin/support/canned-replies/${id}`, support);
    expect((await agentCall('DELETE', `/api/admin/support/canned-replies/${id}`, support)).statusCode).toBe(404);
    const audits = await queryRows<{ action: string }>(
      t.testDatabase.database.db,
      sql`select action from audit_log where target_id = ${id} order by created_at`,
    );
    expect(audits.map((row) => row.action)).toEqual([
      'support.canned_reply_created',
      'support.canned_reply_updated',
      'support.canned_reply_deleted',
    ]);
  });
});

describe('live channels on one instance', () => {
  it('tell the agents of a member’s message, and the member of an agent’s answer', async () => {
    const agents = await openStream(baseUrl, `Bearer ${support}`, undefined, '/api/admin/support/events');
    opened.push(agents);
    expect(agents.status).toBe(200);
    expect((await agents.next()).event).toBe('ready');
    const member = await openStream(baseUrl, alice);
    opened.push(member);
    expect((await member.next()).event).toBe('ready');

    const written = await send(alice, { text: 'Are you there?' });
    const heard = JSON.parse((await agents.next()).data) as { data: { kind: string; messageId: string } };
    expect(heard.data).toMatchObject({
      kind: 'chat.message',
      conversationId: aliceConversation,
      messageId: written.id,
      sender: 'member',
    });

    await agentCall('POST', `/api/admin/support/conversations/${aliceConversation}/messages`, support, { text: 'Yes, here' });
    const frames = [JSON.parse((await member.next()).data), JSON.parse((await member.next()).data)] as {
      data: { kind: string };
    }[];
    expect(frames.map((frame) => frame.data.kind)).toEqual(['chat.read', 'chat.message']);
    expect(frames[1]!.data).toMatchObject({ conversationId: aliceConversation, preview: 'Yes, here' });
    agents.close();
    member.close();
  });
});
