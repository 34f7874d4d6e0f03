import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { Locale } from '@custos/contract';
import type en from '../../web/src/app/i18n/locales/en.json';
import { hashPath, prepareStorage } from './app';
import { expect } from './fixtures';
import { uniqueEmail, waitForCode } from './mail';
import { E2E_BASE_URL } from './server';

type Texts = typeof en;

/**
 * Records what a successful copy puts on the clipboard, on its way in: the app's permissions policy lets
 * no page read the clipboard, so the test keeps what the app copied, whichever way it copied (the
 * Clipboard API or a selection). Read it with `copiedTexts(page)`.
 */
export async function recordCopies(context: BrowserContext): Promise<void> {
  await context.grantPermissions(['clipboard-write'], { origin: E2E_BASE_URL });
  await context.addInitScript(() => {
    const copied: string[] = [];
    Object.assign(window, { copiedTexts: copied });
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (clipboard) {
      const writeText = clipboard.writeText.bind(clipboard);
      clipboard.writeText = async (text: string) => {
        await writeText(text);
        copied.push(text);
      };
    }
    const execCommand = document.execCommand.bind(document);
    document.execCommand = (command: string, showUi?: boolean, value?: string) => {
      const done = execCommand(command, showUi, value);
      const active = document.activeElement;
      if (command === 'copy' && done && active instanceof HTMLTextAreaElement) copied.push(active.value);
      return done;
    };
  });
}

export function copiedTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { copiedTexts: string[] }).copiedTexts);
}

/**
 * On the share poster (the page's member signed in, `recordCopies` on its context): checks the link shown
 * for the member's code, copies it, and checks the toast and exactly that link on the clipboard.
 */
export async function copyPosterLink(page: Page, texts: Texts): Promise<{ code: string; link: string }> {
  await page.goto('/#/pages/share_poster/share_poster');
  const code = (await page.getByTestId('share-code').textContent())!;
  expect(code).toMatch(/^[A-Z0-9]{6,}$/);
  const link = `${E2E_BASE_URL}/#/pages/register/register?code=${code}`;
  await expect(page.getByTestId('share-link')).toHaveText(link);
  await page.getByTestId('share-copy').click();
  await expect(page.getByText(texts.team.copied)).toBeVisible();
  expect(await copiedTexts(page)).toEqual([link]);
  return { code, link };
}

/**
 * A newcomer opens an invitation link in a browser of their own and registers through the screens: the
 * invitation code is already filled in, the e-mail code comes by mail. Returns the new member's session.
 */
export async function registerFromLink(
  browser: Browser,
  invitation: { code: string; link: string },
  options: { locale: Locale; texts: Texts; emailPrefix: string; password: string },
): Promise<{ email: string; token: string }> {
  const { locale, texts, emailPrefix, password } = options;
  const visitor = await browser.newPage();
  try {
    await prepareStorage(visitor, { locale });
    await visitor.goto(invitation.link);
    await expect(visitor.getByPlaceholder(texts.auth.invitationCodePlaceholder)).toHaveValue(invitation.code);
    const email = uniqueEmail(emailPrefix);
    await visitor.getByPlaceholder(texts.auth.emailPlaceholder).fill(email);
    await visitor.getByTestId('agree-terms').click();
    await visitor.getByRole('button', { name: texts.auth.next }).click();
    await expect.poll(() => hashPath(visitor)).toBe('/pages/register/verify_code');
    await visitor.getByPlaceholder(texts.auth.codePlaceholder).fill(await waitForCode(email));
    await visitor.getByRole('button', { name: texts.auth.next }).click();
    await expect.poll(() => hashPath(visitor)).toBe('/pages/register/register1');
    await visitor.getByPlaceholder(texts.auth.newPasswordPlaceholder).fill(password);
    await visitor.getByPlaceholder(texts.auth.confirmPasswordPlaceholder).fill(password);
    await visitor.getByRole('button', { name: texts.auth.register }).click();
    await expect(visitor.getByTestId('tab-bar')).toBeVisible();
    const token = (await visitor.evaluate(() => localStorage.getItem('Authorization')))!;
    return { email, token };
  } finally {
    await visitor.close();
  }
}
