import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';

/**
 * The guard every spec runs under (support/fixtures.ts) must notice a Content-Security-Policy
 * violation in each kind of page a test can open. Each page here is served by a route of the test's
 * own, with a policy that forbids what the page then does: an inline script, and an image from
 * another origin.
 */

const POLICY = "default-src 'self'; script-src 'none'; img-src 'self'";
const PAGE = `<!doctype html><title>csp self-test</title>
<script>document.title = 'inline script ran';</script>
<img src="https://images.example.invalid/pixel.png" alt="">`;

async function openForbiddingPage(page: Page): Promise<void> {
  await page.route('**/csp-self-test', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', headers: { 'content-security-policy': POLICY }, body: PAGE }),
  );
  await page.goto('/csp-self-test');
  // The policy held: the inline script did not run.
  await expect(page).toHaveTitle('csp self-test');
}

async function expectBothViolations(take: () => { via: string; directive: string; blockedUri: string }[]): Promise<void> {
  // Both channels report both, so nothing is left over for the guard's own check at the end.
  await expect
    .poll(() => take().filter((violation) => violation.via === 'console').length, { message: 'console lines of violations' })
    .toBe(2);
  await expect
    .poll(() => take().filter((violation) => violation.via === 'event'), { message: 'violations the listener reported' })
    .toEqual(
      expect.arrayContaining([
        expect.objectContaining({ directive: 'script-src-elem', blockedUri: 'inline' }),
        expect.objectContaining({ directive: 'img-src', blockedUri: 'https://images.example.invalid/pixel.png' }),
      ]),
    );
}

/** Collects what the guard takes across polls, so a poll that sees one of two is not lost. */
function accumulate(csp: { take(): { via: string; directive: string; blockedUri: string }[] }) {
  const seen: { via: string; directive: string; blockedUri: string }[] = [];
  return () => {
    seen.push(...csp.take());
    return [...seen];
  };
}

test('the default page: a violation is recorded', async ({ page, csp }) => {
  await openForbiddingPage(page);
  await expectBothViolations(accumulate(csp));
});

test('a page from browser.newPage(): a violation is recorded', async ({ browser, csp }) => {
  const page = await browser.newPage();
  await openForbiddingPage(page);
  await expectBothViolations(accumulate(csp));
});

test('a page of a context from browser.newContext(): a violation is recorded', async ({ browser, csp }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openForbiddingPage(page);
  await expectBothViolations(accumulate(csp));
});

test('a page of the console helper (its own context): a violation is recorded', async ({ operators, openConsole, csp }) => {
  const page = await openConsole(await operators.create('support'));
  await openForbiddingPage(page);
  await expectBothViolations(accumulate(csp));
});

test('a violation nobody takes fails the test', async ({ page }) => {
  // Expected to fail, in the guard's teardown: the body itself asserts nothing that could fail.
  test.fail();
  await page.route('**/csp-self-test', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', headers: { 'content-security-policy': POLICY }, body: PAGE }),
  );
  const reported = page.waitForEvent('console', (message) => /Content Security Policy/.test(message.text()));
  await page.goto('/csp-self-test');
  await reported;
});
