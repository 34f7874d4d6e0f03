// The order chat seen from both parties (docs/mutation/otc.md, "Order chat"): which side is the
// counterpart of a message, a read mark and the history; the per-member rate limit; an image that
// is already another message's; and evidence that is not the order's. No money moves here, so each
// test also asserts that no balance changed while chatting.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OtcChatHistory, OtcListingDetail, OtcOrderDetail } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { SupportChatRepository } from '../src/modules/support-chat/support-chat.repository.js';
import { trackBalances } from './support/balances.js';
import { listingBody, seedTraders, TINY_PNG, type Trader } from './support/otc.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
// A fixed clock: the rate limit's window does not move while a test sends its messages.
const clock = { now: () => new Date('2026-11-20T08:00:00Z') };
let seq = 0;

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function call<T = unknown>(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  const response = await t.app.inject({
    method,
    url,
    headers: { authorization: token, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
  return response.json<Envelope<T>>();
}

/** A seller's listing taken by a buyer: an open order with its chat. */
async function openOrder(): Promise<{ seller: Trader; buyer: Trader; order: OtcOrderDetail }> {
  seq += 1;
  const [seller, buyer] = await seedTraders(t.testDatabase.database.db, t.services.ledger, `otc-chat${seq}`, 2);
  const listing = (await call<OtcListingDetail>('POST', '/api/otc/post', seller!.token, listingBody(seller!))).data;
  const order = (
    await call<OtcOrderDetail>('POST', '/api/otc/buy', buyer!.token, {
      listingId: listing.id,
      amount: '50',
      idempotencyKey: randomUUID(),
    })
  ).data;
  expect(order.state).toBe('pending_payment');
  return { seller: seller!, buyer: buyer!, order };
}

async function chatUpload(trader: Trader, purpose = 'chat'): Promise<string> {
  const response = await call<{ id: string }>('POST', '/api/upload/image', trader.token, {
    purpose,
    contentBase64: TINY_PNG.toString('base64'),
  });
  expect(response.code).toBe(200);
  return response.data.id;
}

/** The chat events a member received, oldest first, with what each carries. */
async function chatEvents(trader: Trader) {
  const rows = await queryRows<{ kind: string; payload: Record<string, unknown> }>(
    t.testDatabase.database.db,
    sql`select kind, payload from member_events
        where member_id = ${trader.memberId}::uuid and kind in ('otc.chat', 'otc.chat_read') order by id`,
  );
  return rows.map((row) => ({ kind: row.kind, ...row.payload }));
}

async function history(trader: Trader, orderId: string) {
  const answer = await call<OtcChatHistory>('GET', `/api/otc/chat_messages?id=${orderId}`, trader.token);
  expect(answer.code).toBe(200);
  return answer.data;
}

async function messagesOf(orderId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as n from chat_messages m join otc_orders o on o.conversation_id = m.conversation_id
        where o.id = ${orderId}::uuid`,
  );
  return row!.n;
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await t.close();
});

describe('the order chat between the two parties', () => {
  it('each side’s message and read mark reach the other side only, and a history shows the other side’s mark', async () => {
    const { seller, buyer, order } = await openOrder();
    const balances = await trackBalances(t, { seller: seller.accountId, buyer: buyer.accountId });

    // Nobody has written or read yet: the other side's mark is "0" from either side.
    expect(await history(seller, order.id)).toEqual({ items: [], nextBefore: null, counterpartyReadUpTo: '0', open: true });
    expect((await history(buyer, order.id)).counterpartyReadUpTo).toBe('0');

    // The seller writes first: the buyer is told, the seller is not. A mark counts only the other
    // side's messages, so the seller's own message moves no mark.
    const fromSeller = await call<{ id: string }>('POST', '/api/otc/chat_send', seller.token, {
      orderId: order.id,
      text: 'Please pay to the bank card',
    });
    expect(fromSeller.code).toBe(200);
    expect(await chatEvents(buyer)).toEqual([
      { kind: 'otc.chat', orderId: order.id, messageId: fromSeller.data.id, preview: 'Please pay to the bank card' },
    ]);
    expect(await chatEvents(seller)).toEqual([]);
    expect((await history(buyer, order.id)).counterpartyReadUpTo).toBe('0');

    // The buyer answers: the seller is told, and the buyer's answer marks the seller's message read.
    const fromBuyer = await call<{ id: string }>('POST', '/api/otc/chat_send', buyer.token, {
      orderId: order.id,
      text: 'Paying now',
    });
    expect(fromBuyer.code).toBe(200);
    expect(await chatEvents(seller)).toEqual([
      { kind: 'otc.chat', orderId: order.id, messageId: fromBuyer.data.id, preview: 'Paying now' },
    ]);

    // The seller reads the buyer's answer: the buyer's ticks move, once; a repeated read is no news.
    expect((await call('POST', '/api/otc/chat_read', seller.token, { orderId: order.id, upTo: fromBuyer.data.id })).code).toBe(
      200,
    );
    expect((await call('POST', '/api/otc/chat_read', seller.token, { orderId: order.id, upTo: fromBuyer.data.id })).code).toBe(
      200,
    );
    expect(await chatEvents(buyer)).toEqual([
      { kind: 'otc.chat', orderId: order.id, messageId: fromSeller.data.id, preview: 'Please pay to the bank card' },
      { kind: 'otc.chat_read', orderId: order.id, readUpTo: fromBuyer.data.id },
    ]);
    expect(await chatEvents(seller)).toEqual([
      { kind: 'otc.chat', orderId: order.id, messageId: fromBuyer.data.id, preview: 'Paying now' },
    ]);
    // Each history shows the other side's mark. Answering marks what one answered as read, so the
    // seller sees the buyer's mark at the seller's message without the buyer reading it.
    expect((await history(buyer, order.id)).counterpartyReadUpTo).toBe(fromBuyer.data.id);
    expect((await history(seller, order.id)).counterpartyReadUpTo).toBe(fromSeller.data.id);
    // So the buyer reading up to the newest message moves nothing and tells the seller nothing.
    await call('POST', '/api/otc/chat_read', buyer.token, { orderId: order.id, upTo: fromBuyer.data.id });
    expect(await chatEvents(seller)).toEqual([
      { kind: 'otc.chat', orderId: order.id, messageId: fromBuyer.data.id, preview: 'Paying now' },
    ]);

    // The seller writes again and the buyer reads it: that read moves, so the seller is told.
    const again = await call<{ id: string }>('POST', '/api/otc/chat_send', seller.token, { orderId: order.id, text: 'Seen it' });
    expect(again.code).toBe(200);
    await call('POST', '/api/otc/chat_read', buyer.token, { orderId: order.id, upTo: again.data.id });
    expect(await chatEvents(seller)).toEqual([
      { kind: 'otc.chat', orderId: order.id, messageId: fromBuyer.data.id, preview: 'Paying now' },
      { kind: 'otc.chat_read', orderId: order.id, readUpTo: again.data.id },
    ]);
    expect((await chatEvents(buyer)).at(-1)).toEqual({
      kind: 'otc.chat',
      orderId: order.id,
      messageId: again.data.id,
      preview: 'Seen it',
    });
    expect((await history(seller, order.id)).counterpartyReadUpTo).toBe(again.data.id);
    await balances.expectChanges({});
  }, 60_000);

  it('the 21st message of a member in a minute answers 429 with its wait and posts nothing; the other party may still write', async () => {
    const { seller, buyer, order } = await openOrder();
    for (let index = 1; index <= 20; index += 1) {
      const sent = await call('POST', '/api/otc/chat_send', buyer.token, { orderId: order.id, text: `message ${index}` });
      expect(sent.code).toBe(200);
    }
    const over = await call('POST', '/api/otc/chat_send', buyer.token, { orderId: order.id, text: 'one too many' });
    expect(over).toMatchObject({ code: 429, data: null });
    expect(over.message).toMatch(/^You are sending messages too quickly, please try again in [1-9]\d* s$/);
    expect(await messagesOf(order.id)).toBe(20);
    // The limit is the member's own: the seller is not blocked by the buyer's messages.
    expect((await call('POST', '/api/otc/chat_send', seller.token, { orderId: order.id, text: 'Received?' })).code).toBe(200);
    expect(await messagesOf(order.id)).toBe(21);
  }, 60_000);

  it('an image another message took meanwhile answers 400 chat.image_missing from the unique index, and posts nothing', async () => {
    const { buyer, order } = await openOrder();
    const image = await chatUpload(buyer);
    expect((await call('POST', '/api/otc/chat_send', buyer.token, { orderId: order.id, imageId: image })).code).toBe(200);
    // Two sends of one image racing: both passed the "not attached yet" check before either wrote.
    // The check answers yes once more, as it did for the slower send, and the index refuses the row.
    vi.spyOn(SupportChatRepository.prototype, 'attachable').mockResolvedValueOnce(true);
    const again = await call('POST', '/api/otc/chat_send', buyer.token, { orderId: order.id, imageId: image });
    expect(again).toEqual({
      code: 400,
      message: 'The image is missing or is not yours; please upload it again',
      data: null,
    });
    expect(await messagesOf(order.id)).toBe(1);
  }, 60_000);

  it('an upload that is not the order’s evidence is not found, though its owner is a party', async () => {
    const { seller, buyer, order } = await openOrder();
    const notEvidence = await chatUpload(buyer, 'otc');
    for (const party of [buyer, seller]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/otc/evidence_image?id=${order.id}&uploadId=${notEvidence}`,
        headers: { authorization: party.token, lang: 'EN' },
      });
      expect(response.statusCode).toBe(404);
    }
  }, 60_000);
});
