import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The smallest real PNG (1×1, transparent). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestApp;
let alice: string;
let bob: string;
let support: string;
let reviewer: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await registerMember(t, 'alice-feedback@example.com');
  bob = await registerMember(t, 'bob-feedback@example.com');
  support = await operatorToken(t, 'support-fb', 'support');
  reviewer = await operatorToken(t, 'reviewer-fb', 'reviewer');
});
afterAll(async () => {
  await t.close();
});

function memberCall(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) });
}
function operatorCall(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
}
async function upload(token: string, purpose: 'feedback' | 'identity' = 'feedback', bytes: Buffer = TINY_PNG) {
  return memberCall('POST', '/api/upload/image', token, { purpose, contentBase64: bytes.toString('base64') });
}
async function uploadId(token: string, purpose: 'feedback' | 'identity' = 'feedback'): Promise<string> {
  const response = await upload(token, purpose);
  expect(response.json()).toMatchObject({ code: 200 });
  return response.json<{ data: { id: string } }>().data.id;
}
async function counts() {
  const [row] = await queryRows<{ feedback: number; images: number }>(
    t.testDatabase.database.db,
    sql`select (select count(*)::int from feedback) as feedback, (select count(*)::int from feedback_images) as images`,
  );
  return row!;
}
interface FeedbackData {
  id: string;
  title: string;
  content: string;
  orderNo: string | null;
  imageIds: string[];
  status: string;
  reply: string | null;
}

describe('sending feedback', () => {
  it('refuses content over 140 characters, 4 images, foreign or fake images, and stores nothing', async () => {
    const before = await counts();
    const long = await memberCall('POST', '/api/common/push_feedback', alice, { title: 'Slow', content: 'x'.repeat(141) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ code: 400, message: 'content: too long', data: null });

    const four = [await uploadId(alice), await uploadId(alice), await uploadId(alice), await uploadId(alice)];
    const tooMany = await memberCall('POST', '/api/common/push_feedback', alice, {
      title: 'Slow',
      content: 'ok',
      imageIds: four,
    });
    expect(tooMany.json()).toEqual({ code: 400, message: 'images: at most 3 images', data: null });

    // A file that only claims to be an image never becomes an upload.
    const fake = await upload(alice, 'feedback', Buffer.from('GIF89a<script>alert(1)</script>'));
    expect(fake.json()).toEqual({ code: 400, message: 'Only JPEG, PNG or WebP images are accepted', data: null });

    const bobs = await uploadId(bob);
    const foreign = await memberCall('POST', '/api/common/push_feedback', alice, {
      title: 'Slow',
      content: 'ok',
      imageIds: [bobs],
    });
    expect(foreign.json()).toEqual({
      code: 400,
      message: 'An image is missing or is not yours; please upload it again',
      data: null,
    });
    const identity = await uploadId(alice, 'identity');
    const document = await memberCall('POST', '/api/common/push_feedback', alice, {
      title: 'Slow',
      content: 'ok',
      imageIds: [identity],
    });
    expect(document.json()).toMatchObject({ code: 400, message: 'An image is missing or is not yours; please upload it again' });
    const twice = await memberCall('POST', '/api/common/push_feedback', alice, {
      title: 'Slow',
      content: 'ok',
      imageIds: [four[0], four[0]],
    });
    expect(twice.json()).toMatchObject({ code: 400, message: 'images: invalid value' });
    const badOrder = await memberCall('POST', '/api/common/push_feedback', alice, {
      title: 'Slow',
      content: 'ok',
      orderNo: 'A 1',
    });
    expect(badOrder.json()).toMatchObject({ code: 400, message: 'order number: invalid value' });
    expect(await counts()).toEqual(before);
  });

  it('stores 140 characters with three images and an order number; the list shows it awaiting a reply', async () => {
    const ids = [await uploadId(alice), await uploadId(alice), await uploadId(alice)];
    const content = '慢'.repeat(140);
    const sent = await memberCall('POST', '/api/common/push_feedback', alice, {
      title: ' Deposit late ',
      content,
      imageIds: ids,
      orderNo: 'W20261124-01',
    });
    expect(sent.json()).toMatchObject({
      code: 200,
      data: { title: 'Deposit late', content, imageIds: ids, orderNo: 'W20261124-01', status: 'awaiting_reply', reply: null },
    });
    // An image goes with one feedback only.
    const again = await memberCall('POST', '/api/common/push_feedback', alice, {
      title: 'Again',
      content: 'ok',
      imageIds: [ids[0]],
    });
    expect(again.json()).toMatchObject({ code: 400 });

    const list = (await memberCall('GET', '/api/common/feedback_list', alice)).json<{
      data: { items: FeedbackData[]; total: number };
    }>();
    expect(list.data.total).toBe(1);
    expect(list.data.items[0]).toMatchObject({ title: 'Deposit late', status: 'awaiting_reply', imageIds: ids, reply: null });
  });
});

describe('authorisation', () => {
  it("never shows a member another's feedback or images; operators see only feedback images", async () => {
    const id = await uploadId(alice);
    const sent = (
      await memberCall('POST', '/api/common/push_feedback', alice, { title: 'Private', content: 'mine', imageIds: [id] })
    ).json<{ data: FeedbackData }>();
    const bobsList = (await memberCall('GET', '/api/common/feedback_list', bob)).json<{
      data: { items: FeedbackData[]; total: number };
    }>();
    expect(bobsList.data).toMatchObject({ items: [], total: 0 });
    expect((await memberCall('GET', `/api/upload/image/${id}`, bob)).statusCode).toBe(404);
    expect((await memberCall('GET', `/api/upload/image/${id}`, alice)).rawPayload.equals(TINY_PNG)).toBe(true);

    const image = await operatorCall('GET', `/api/admin/feedback/${sent.data.id}/image/${id}`, support);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    // An upload no feedback carries (here: an identity document) is not reachable through feedback.
    const identity = await uploadId(alice, 'identity');
    expect((await operatorCall('GET', `/api/admin/feedback/${sent.data.id}/image/${identity}`, support)).statusCode).toBe(404);
    // Reviewers have no feedback permission; members have no console.
    expect((await operatorCall('GET', '/api/admin/feedback', reviewer)).json()).toMatchObject({ code: 403 });
    expect((await memberCall('GET', '/api/admin/feedback', alice)).json()).toMatchObject({ code: 401 });
  });
});

describe('replies', () => {
  it('go awaiting → replied once, audited, with an event for the member only', async () => {
    const sent = (await memberCall('POST', '/api/common/push_feedback', bob, { title: 'Withdrawal', content: 'When?' })).json<{
      data: FeedbackData;
    }>();
    const queue = (await operatorCall('GET', '/api/admin/feedback', support)).json<{
      data: { items: (FeedbackData & { email: string })[] };
    }>();
    expect(queue.data.items.find((item) => item.id === sent.data.id)).toMatchObject({
      email: 'bob-feedback@example.com',
      status: 'awaiting_reply',
    });

    const empty = await operatorCall('POST', `/api/admin/feedback/${sent.data.id}/reply`, support, { reply: '  ' });
    expect(empty.json()).toMatchObject({ code: 400, message: 'please enter reply' });
    const replied = await operatorCall('POST', `/api/admin/feedback/${sent.data.id}/reply`, support, {
      reply: 'Today by 21:00.',
    });
    expect(replied.json()).toEqual({ code: 200, message: 'Success', data: null });
    const twice = await operatorCall('POST', `/api/admin/feedback/${sent.data.id}/reply`, support, { reply: 'Again' });
    expect(twice.json()).toEqual({ code: 409, message: 'This feedback has already been replied to', data: null });

    const list = (await memberCall('GET', '/api/common/feedback_list', bob)).json<{ data: { items: FeedbackData[] } }>();
    expect(list.data.items.find((item) => item.id === sent.data.id)).toMatchObject({
      status: 'replied',
      reply: 'Today by 21:00.',
    });

    const audit = await queryRows<{ action: string; target_id: string }>(
      t.testDatabase.database.db,
      sql`select action, target_id from audit_log where action = 'feedback.replied'`,
    );
    expect(audit).toEqual([{ action: 'feedback.replied', target_id: sent.data.id }]);
    const events = await queryRows<{ email: string; kind: string; payload: unknown }>(
      t.testDatabase.database.db,
      sql`select m.email, e.kind, e.payload from member_events e join members m on m.id = e.member_id`,
    );
    expect(events).toEqual([
      { email: 'bob-feedback@example.com', kind: 'feedback.replied', payload: { feedbackId: sent.data.id, title: 'Withdrawal' } },
    ]);
  });
});

describe('floods', () => {
  it('take ten feedbacks an hour from a member, then 429 with nothing stored', async () => {
    const flooder = await registerMember(t, 'flood-feedback@example.com');
    for (let index = 0; index < 10; index += 1) {
      const sent = await memberCall('POST', '/api/common/push_feedback', flooder, { title: `No. ${index}`, content: 'again' });
      expect(sent.json()).toMatchObject({ code: 200 });
    }
    const before = await counts();
    const refused = await memberCall('POST', '/api/common/push_feedback', flooder, { title: 'No. 10', content: 'again' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 429, data: null });
    expect(refused.json<{ message: string }>().message).toMatch(/^Too many attempts, please try again in \d+ s$/);
    expect(await counts()).toEqual(before);
  });
});
