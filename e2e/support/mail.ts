import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CaughtMail } from '../../server/test/support/mail-catcher';

/** Mails the real SMTP server of the global setup received for `to`, oldest first. */
function mailsTo(to: string): CaughtMail[] {
  const directory = process.env.E2E_MAIL_DIR;
  if (!directory) throw new Error('E2E_MAIL_DIR is not set (global setup did not run)');
  return readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as CaughtMail)
    .filter((mail) => mail.to.includes(to));
}

/** Waits for the `count`-th mail to `to` and returns the 6-digit code in its subject. */
export async function waitForCode(to: string, count = 1): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const mail = mailsTo(to)[count - 1];
    const code = mail && /\b(\d{6})\b/.exec(mail.subject)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code mail ${count} for ${to}`);
}

/** A fresh address per test run, so reruns against one server never collide. */
export function uniqueEmail(name: string): string {
  return `${name}.${Date.now().toString(36)}${Math.floor(performance.now()).toString(36)}@example.com`;
}
