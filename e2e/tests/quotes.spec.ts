import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { Locale } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import ko from '../../web/src/app/i18n/locales/ko.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { answerOf, openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';

async function setPrice(console: Page, symbol: string, price: string) {
  await console.getByTestId(`quote-set-price-${symbol}`).click();
  const drawer = console.locator('.ant-drawer-open');
  await drawer.getByTestId('quote-price-input').fill(price);
  expect(
    await answerOf(console, 'POST', /^\/api\/admin\/quotes\/products\/[^/]+\/price$/, () =>
      drawer.getByTestId('quote-price-save').click(),
    ),
  ).toMatchObject({ code: 200 });
  await expect(console.getByTestId(`quote-admin-price-${symbol}`)).toHaveText(price);
  await expect(console.locator('.ant-drawer-open')).toHaveCount(0);
}

test('an operator lists a manual pair and prices it; members see the price and its 24 h change on Home in two languages', async ({
  page,
  browser,
  members,
  operators,
  openConsole,
}) => {
  // A console story and two member apps: the console specs' budget (decision 013).
  test.setTimeout(120_000);
  const symbol = `Q${randomBytes(3).toString('hex').toUpperCase()}/USDT`;
  const name = `Quote ${symbol}`;

  // ── The console ──────────────────────────────────────────────────────────────────────────────
  const console = await openConsole(await operators.create('finance'));
  await openConsolePage(console, 'Quotes');
  await console.getByTestId('quote-add').click();
  const drawer = console.locator('.ant-drawer-open');
  await drawer.getByTestId('quote-symbol').fill(symbol.toLowerCase());
  await drawer.getByTestId('quote-display-name').fill(name);
  expect(
    await answerOf(console, 'POST', /^\/api\/admin\/quotes\/products$/, () => drawer.getByTestId('quote-save').click()),
  ).toMatchObject({ code: 200 });
  await expect(console.getByTestId(`quote-admin-price-${symbol}`)).toHaveText('—');
  await expect(console.locator('.ant-drawer-open')).toHaveCount(0);
  // The first price, then a new one: the pair is younger than a day, so the change is against its first price.
  await setPrice(console, symbol, '100');
  await setPrice(console, symbol, '112.5');

  // ── Members ──────────────────────────────────────────────────────────────────────────────────
  const cases: { locale: Locale; title: string }[] = [
    { locale: 'en', title: en.quotes.title },
    { locale: 'ko', title: ko.quotes.title },
  ];
  const memberPages: Page[] = [];
  for (const { locale, title } of cases) {
    const memberPage = locale === 'en' ? page : await browser.newPage({ baseURL: test.info().project.use.baseURL });
    const errors = collectErrors(memberPage);
    const member = await members.create(`quotes-${locale}`);
    await prepareStorage(memberPage, { credential: member.token, locale });
    await memberPage.goto('/#/pages/index/index');
    const quotes = memberPage.getByTestId('home-quotes');
    await expect(quotes).toContainText(title);
    await expect(quotes.getByTestId('home-quote').first()).toHaveAttribute('data-symbol', 'RAB/USDT');
    const line = quotes.locator(`[data-symbol="${symbol}"]`);
    await expect(line.getByTestId('quote-price')).toHaveText('112.5');
    await expect(line.getByTestId('quote-change')).toHaveText('+12.50%');
    await expect(line.getByTestId('quote-change')).toHaveAttribute('data-direction', 'up');
    await expect(line).toContainText(name);
    await expect(line).toHaveAttribute('data-stale', 'false');
    expect(errors).toEqual([]);
    memberPages.push(memberPage);
  }

  // The price falls below its first: red, and Home shows it on its next read.
  await setPrice(console, symbol, '90');
  const koPage = memberPages[1]!;
  await koPage.reload();
  const line = koPage.getByTestId('home-quotes').locator(`[data-symbol="${symbol}"]`);
  await expect(line.getByTestId('quote-price')).toHaveText('90');
  await expect(line.getByTestId('quote-change')).toHaveText('-10.00%');
  await expect(line.getByTestId('quote-change')).toHaveAttribute('data-direction', 'down');
  await koPage.close();
});
