import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  // No SMTP_URL: the embedded default.
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('mail without SMTP', () => {
  it('keeps every mail in the outbox as logged, its code masked; the code goes to the transport only', async () => {
    const id = await t.services.mail.send('someone@example.com', 'login_code', 'ja', { code: '123456' });
    await t.services.mail.flush();
    const rows = await queryRows<{ status: string; subject: string; body: string; attempts: number; pending_delivery: unknown }>(
      t.testDatabase.database.db,
      sql`select status, subject, body, attempts, pending_delivery from mail_outbox where id = ${id}`,
    );
    expect(rows[0]).toMatchObject({ status: 'logged', attempts: 1, pending_delivery: null });
    expect(rows[0]!.subject).toContain('••••••');
    expect(`${rows[0]!.subject} ${rows[0]!.body}`).not.toContain('123456');
    expect(t.mailbox.find((mail) => mail.to === 'someone@example.com')?.subject).toContain('123456');
  });

  it('delivers a mail once even when asked twice', async () => {
    const id = await t.services.mail.send('twice@example.com', 'reset_code', 'en', { code: '654321' });
    // PGlite runs one transaction at a time: only this test's PostgreSQL run proves the race.
    await Promise.all([t.services.mail.deliver(id), t.services.mail.deliver(id)]);
    await t.services.mail.flush();
    const rows = await queryRows<{ attempts: number }>(
      t.testDatabase.database.db,
      sql`select attempts from mail_outbox where id = ${id}`,
    );
    expect(rows[0]!.attempts).toBe(1);
  });
});
