import type { Browser, Page } from '@playwright/test';
import zhHans from '../../web/src/app/i18n/locales/zh-Hans.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';
import { uniqueEmail } from '../support/mail';
import { startServersOnPostgres, type ServersOnPostgres } from '../support/postgres-servers';

/** A real 1×1 PNG, as a phone camera's file would be uploaded. */
const PHOTO = {
  name: 'photo.png',
  mimeType: 'image/png',
  buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
};

/**
 * Issue 13: member and agent chat in real time across two server instances on one PostgreSQL, the
 * member's app on instance A and the agent's console on instance B (decision 029). The pair and
 * its PostgreSQL cluster belong to this file (own ports and directories, so parallel runs of it do
 * not meet); the global setup's embedded-database server is not used.
 */
let servers: ServersOnPostgres;

test.beforeAll(async () => {
  // Two cold starts that migrate a fresh PostgreSQL database one after the other.
  test.setTimeout(300_000);
  servers = await startServersOnPostgres(2);
});
test.afterAll(async () => {
  await servers?.stop();
});

async function openMemberApp(browser: Browser, baseURL: string, token: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 780 } });
  const page = await context.newPage();
  await prepareStorage(page, { credential: token, locale: 'zh-Hans' });
  return page;
}

/** Opens the kefu screen and waits until the live channel is registered (the answer comes once it is). */
async function openKefu(page: Page): Promise<void> {
  const channel = page.waitForResponse((response) => response.url().endsWith('/api/user/events') && response.status() === 200);
  await page.goto('/#/pages/kefu/kefu');
  await channel;
}

async function openInbox(browser: Browser, baseURL: string, token: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1400, height: 900 } });
  await context.addInitScript((session: string) => {
    if (sessionStorage.getItem('e2e-signed-in')) return;
    sessionStorage.setItem('e2e-signed-in', '1');
    sessionStorage.setItem('custos.operatorToken', session);
  }, token);
  const page = await context.newPage();
  await page.goto('/admin/');
  await expect(page.getByTestId('operator-name')).toContainText('admin');
  await openConsolePage(page, 'Customer service');
  // The inbox's own live channel is open (its `ready` frame arrived).
  await expect(page.getByTestId('support-live')).toHaveText('Live');
  return page;
}

test('member (instance A) and agent (instance B) chat in real time, with images, ticks and the unread badge', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const [a, b] = servers.instances.map((instance) => instance.baseUrl) as [string, string];
  const email = uniqueEmail('kefu');
  const token = await servers.registerMember(email, 'login-password', 0);

  const member = await openMemberApp(browser, a, token);
  const memberErrors = collectErrors(member);
  await openKefu(member);
  await expect(member.getByTestId('kefu-welcome')).toHaveText(zhHans.kefu.welcome);

  const agent = await openInbox(browser, b, servers.adminToken);
  const agentErrors = collectErrors(agent);

  // The member writes on A: the inbox on B shows the conversation with one unread, without a reload.
  await member.getByTestId('kefu-input').locator('textarea:not([readonly])').fill('你好，我的充值还没有到账');
  await member.getByTestId('kefu-send').click();
  const mine = member.getByTestId('kefu-message').filter({ hasText: '你好，我的充值还没有到账' });
  await expect(mine).toHaveAttribute('data-sender', 'member');
  const conversation = agent.locator(`[data-testid="support-conversation"][data-email="${email}"]`);
  await expect(conversation).toBeVisible();
  await expect(conversation.getByTestId('support-conversation-unread')).toHaveText('1');

  // The agent opens it on B: read, and the member's tick on A turns to "read" live.
  await conversation.click();
  await expect(agent.getByTestId('support-message').filter({ hasText: '你好，我的充值还没有到账' })).toBeVisible();
  await expect(agent.getByTestId('support-member-context')).toContainText(email);
  await expect(mine.getByTestId('kefu-tick')).toHaveAttribute('data-tick', 'read');
  await expect(mine.getByTestId('kefu-tick')).toContainText(zhHans.kefu.tick.read);

  // The agent answers on B: the member sees it on A without a reload (no toast on the chat screen itself).
  await agent.getByTestId('support-reply-input').fill('您好，我们正在核实，请稍候。');
  await agent.getByTestId('support-reply-send').click();
  const answer = member.getByTestId('kefu-message').filter({ hasText: '您好，我们正在核实，请稍候。' });
  await expect(answer).toHaveAttribute('data-sender', 'agent');
  await expect(answer).toContainText(zhHans.kefu.agent);
  // Shown on the member's screen: the agent's message is read there.
  await expect(agent.getByTestId('support-tick').last()).toContainText('Read');

  // An image from the member reaches the console.
  await member.getByTestId('kefu-image-input').setInputFiles(PHOTO);
  await expect(member.getByTestId('kefu-message').last().getByTestId('kefu-image').locator('img')).toBeVisible();
  await expect(agent.getByTestId('support-image')).toHaveCount(1);

  // Elsewhere in the app, the floating button counts the agent's new message; it opens the chat.
  // (A fresh load of Home, waiting until its live channel is registered.)
  const homeChannel = member.waitForResponse(
    (response) => response.url().endsWith('/api/user/events') && response.status() === 200,
  );
  await member.goto('/?home#/pages/index/index');
  await homeChannel;
  await expect(member.getByTestId('kefu-unread')).toHaveAttribute('data-count', '0');
  await agent.getByTestId('support-reply-input').fill('已为您处理完毕。');
  await agent.getByTestId('support-reply-send').click();
  await expect(member.getByTestId('kefu-unread')).toHaveAttribute('data-count', '1');
  await expect(member.getByTestId('kefu-unread')).toHaveText('1');
  await member.getByTestId('kefu-unread').click();
  await expect(member.getByTestId('kefu-message').filter({ hasText: '已为您处理完毕。' })).toBeVisible();

  // After a reload the whole conversation is there, in order, with its ticks.
  await openKefu(member);
  await expect(member.getByTestId('kefu-message')).toHaveCount(4);
  await expect(member.getByTestId('kefu-message').first()).toContainText('你好，我的充值还没有到账');
  await expect(member.getByTestId('kefu-message').first().getByTestId('kefu-tick')).toHaveAttribute('data-tick', 'read');
  await expect(member.getByTestId('kefu-message').last()).toContainText('已为您处理完毕。');

  expect(memberErrors).toEqual([]);
  expect(agentErrors).toEqual([]);
});
