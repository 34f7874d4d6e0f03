import type { Page } from '@playwright/test';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';

/**
 * Customer service in English on the suite's own server (one instance; the two-instance run on
 * PostgreSQL, in Chinese, is support-chat.spec.ts): a member writes from kefu, a support operator
 * answers from the console's inbox, and the member sees the answer and the read tick live.
 */

async function openKefu(page: Page): Promise<void> {
  const channel = page.waitForResponse((response) => response.url().endsWith('/api/user/events') && response.status() === 200);
  await page.goto('/#/pages/kefu/kefu');
  await channel;
}

test('kefu in English: a member asks, a support operator answers from the inbox, both see it live', async ({
  page,
  members,
  operators,
  openConsole,
}) => {
  const errors = collectErrors(page);
  const member = await members.create('kefu-en');
  await prepareStorage(page, { credential: member.token, locale: 'en' });
  await openKefu(page);
  await expect(page.getByTestId('kefu-welcome')).toHaveText(en.kefu.welcome);

  const agent = await openConsole(await operators.create('support'));
  await openConsolePage(agent, 'Customer service');
  await expect(agent.getByTestId('support-live')).toHaveText('Live');

  const question = 'Hello, how long does a withdrawal review take?';
  await page.getByTestId('kefu-input').locator('textarea:not([readonly])').fill(question);
  await page.getByTestId('kefu-send').click();
  const mine = page.getByTestId('kefu-message').filter({ hasText: question });
  await expect(mine).toHaveAttribute('data-sender', 'member');

  const conversation = agent.locator(`[data-testid="support-conversation"][data-email="${member.email}"]`);
  await expect(conversation.getByTestId('support-conversation-unread')).toHaveText('1');
  await conversation.click();
  await expect(agent.getByTestId('support-message').filter({ hasText: question })).toBeVisible();
  await expect(mine.getByTestId('kefu-tick')).toHaveAttribute('data-tick', 'read');
  await expect(mine.getByTestId('kefu-tick')).toContainText(en.kefu.tick.read);

  const answer = 'Usually within an hour on a working day.';
  await agent.getByTestId('support-reply-input').fill(answer);
  await agent.getByTestId('support-reply-send').click();
  const reply = page.getByTestId('kefu-message').filter({ hasText: answer });
  await expect(reply).toHaveAttribute('data-sender', 'agent');
  await expect(reply).toContainText(en.kefu.agent);
  await expect(agent.getByTestId('support-tick').last()).toContainText('Read');

  expect(errors).toEqual([]);
});
