import type { Page } from '@playwright/test';
import { translate, type Locale } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import zhHans from '../../web/src/app/i18n/locales/zh-Hans.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';

/** A real 1×1 PNG, as a phone camera's file would be uploaded. */
const PHOTO = {
  name: 'photo.png',
  mimeType: 'image/png',
  buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
};
/** Text with an image's name: refused by its bytes. */
const FAKE = { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not really a picture') };

type Messages = typeof en;
const CASES: { locale: Locale; messages: Messages; title: string; content: string; reply: string }[] = [
  {
    locale: 'en',
    messages: en,
    title: 'Deposit not shown',
    content: 'I sent 20 USDT an hour ago and it is not in my balance yet.',
    reply: 'It is credited now, thank you for waiting.',
  },
  {
    locale: 'zh-Hans',
    messages: zhHans,
    title: '充值未到账',
    content: '一小时前充值 20 USDT，余额仍未显示。',
    reply: '已到账，感谢您的耐心等待。',
  },
];

/** Opens the feedback screen and waits until its live channel is open (the answer comes once it is registered). */
async function openFeedback(page: Page): Promise<void> {
  const channel = page.waitForResponse((response) => response.url().endsWith('/api/user/events') && response.status() === 200);
  await page.goto('/#/pages/blance_record/blance_record11');
  await channel;
}

for (const { locale, messages, title, content, reply } of CASES) {
  test(`feedback in ${locale}: sent with an image, replied in the console, the member sees the reply live`, async ({
    page,
    members,
    operators,
    openConsole,
  }) => {
    const errors = collectErrors(page);
    const member = await members.create('feedback');
    await prepareStorage(page, { credential: member.token, locale });
    await openFeedback(page);
    await expect(page.getByTestId('records-empty')).toBeVisible();

    await page.getByTestId('feedback-new').click();
    await page.getByTestId('feedback-submit').click();
    await expect(page.getByText(translate(locale, 'reason.required', { field: translate(locale, 'field.title') }))).toBeVisible();

    await page.getByTestId('feedback-title-input').locator('input').fill(title);
    await page.getByTestId('feedback-content-input').locator('textarea').fill(content);
    // A file that is not an image is refused by the server, in the member's language; nothing is added.
    await page.getByTestId('feedback-image-input').setInputFiles(FAKE);
    await expect(page.getByText(translate(locale, 'upload.invalid_type'))).toBeVisible();
    await expect(page.getByTestId('feedback-picked')).toHaveCount(0);
    await page.getByTestId('feedback-image-input').setInputFiles(PHOTO);
    await expect(page.getByTestId('feedback-picked')).toHaveCount(1);
    const sent = page.waitForResponse((response) => response.url().endsWith('/api/common/push_feedback'));
    await page.getByTestId('feedback-submit').click();
    expect(await (await sent).json()).toMatchObject({ code: 200, data: { title, content, status: 'awaiting_reply' } });

    const item = page.getByTestId('feedback-item');
    await expect(item).toHaveCount(1);
    await expect(item.getByTestId('feedback-title')).toHaveText(title);
    await expect(item.getByTestId('feedback-status')).toHaveText(messages.feedback.status.awaiting_reply);
    await expect(item.locator('.feedback-thumb img')).toHaveCount(1);

    const console = await openConsole(await operators.create('support'));
    await openConsolePage(console, 'Feedback');
    await console.getByRole('cell', { name: member.email, exact: true }).click();
    await expect(console.getByTestId('feedback-content')).toHaveText(content);
    await expect(console.getByTestId('feedback-image')).toHaveCount(1);
    await console.getByTestId('feedback-reply').fill(reply);
    const replied = console.waitForResponse((response) => response.url().endsWith('/reply'));
    await console.getByRole('button', { name: 'Send reply' }).click();
    expect(await (await replied).json()).toEqual({ code: 200, message: translate('en', 'ok'), data: null });
    await expect(console.getByRole('cell', { name: member.email, exact: true })).toHaveCount(0);

    // Without a reload: the toast, and the list showing the reply.
    await expect(page.getByText(messages.live.feedbackReplied.replace('{{title}}', title))).toBeVisible();
    await expect(item.getByTestId('feedback-status')).toHaveText(messages.feedback.status.replied);
    await expect(item.getByTestId('feedback-reply')).toHaveText(messages.feedback.replyValue.replace('{{reply}}', reply));
    expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  });
}
