import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { Locale } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import ja from '../../web/src/app/i18n/locales/ja.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { answerOf, chooseOption, openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';

/** A real 1×1 PNG, as an operator's file would be uploaded. */
const PICTURE = {
  name: 'banner.png',
  mimeType: 'image/png',
  buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
};

/** Fills one language version's locale (a select) in an open drawer. */
async function chooseLanguage(page: Page, drawer: Locator, index: number, locale: Locale) {
  const labels: Record<string, string> = { en: 'English (en)', 'zh-Hans': '简体中文 (zh-Hans)' };
  await chooseOption(page, drawer.getByLabel('Language').nth(index), labels[locale]!);
}

async function uploadInto(page: Page, input: Locator) {
  const uploaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/admin/content/images');
  await input.setInputFiles(PICTURE);
  expect(await (await uploaded).json()).toMatchObject({ code: 200 });
}

test('an operator publishes a banner, a notice and an article; members read them in English and, falling back, in Simplified Chinese', async ({
  page,
  browser,
  members,
  operators,
  openConsole,
}) => {
  // Two apps, three editors and two members in one story: the console specs' budget (decision 013).
  test.setTimeout(120_000);
  const tag = randomBytes(4).toString('hex');
  const text = {
    bannerEn: `Banner ${tag}`,
    bannerZh: `横幅 ${tag}`,
    noticeEn: `Notice ${tag}`,
    noticeZh: `公告 ${tag}`,
    articleEn: `Market ${tag}`,
    articleZh: `市场 ${tag}`,
  };

  // ── The console ──────────────────────────────────────────────────────────────────────────────
  const console = await openConsole(await operators.create('support'));
  await openConsolePage(console, 'Content');

  await console.getByTestId('content-new-banner').click();
  const bannerDrawer = console.locator('.ant-drawer-open');
  await bannerDrawer.getByTestId('banner-link').fill('/pages/index/index5');
  await bannerDrawer.getByTestId('banner-title-0').fill(text.bannerEn);
  await uploadInto(console, bannerDrawer.getByTestId('banner-image-0'));
  await expect(bannerDrawer.getByTestId('banner-image-0-preview')).toBeVisible();
  await bannerDrawer.getByTestId('banner-add-language').click();
  await chooseLanguage(console, bannerDrawer, 1, 'zh-Hans');
  await bannerDrawer.getByTestId('banner-title-1').fill(text.bannerZh);
  await uploadInto(console, bannerDrawer.getByTestId('banner-image-1'));
  expect(
    await answerOf(console, 'POST', /^\/api\/admin\/content\/banners$/, () => bannerDrawer.getByTestId('banner-save').click()),
  ).toMatchObject({
    code: 200,
  });
  await expect(console.getByTestId('banner-row').filter({ hasText: text.bannerEn })).toHaveCount(1);

  await console.getByRole('tab', { name: 'Notices' }).click();
  await console.getByTestId('content-new-notice').click();
  const noticeDrawer = console.locator('.ant-drawer-open');
  await noticeDrawer.getByTestId('notice-text-0').fill(text.noticeEn);
  await noticeDrawer.getByTestId('notice-add-language').click();
  await chooseLanguage(console, noticeDrawer, 1, 'zh-Hans');
  await noticeDrawer.getByTestId('notice-text-1').fill(text.noticeZh);
  expect(
    await answerOf(console, 'POST', /^\/api\/admin\/content\/notices$/, () => noticeDrawer.getByTestId('notice-save').click()),
  ).toMatchObject({
    code: 200,
  });
  await expect(console.getByTestId('notice-row').filter({ hasText: text.noticeEn })).toHaveCount(1);

  await console.getByRole('tab', { name: 'News articles' }).click();
  await console.getByTestId('content-new-article').click();
  const articleDrawer = console.locator('.ant-drawer-open');
  await chooseOption(console, articleDrawer.getByLabel('Type'), 'Market news');
  await chooseOption(console, articleDrawer.getByLabel('Status'), 'Published');
  await articleDrawer.getByTestId('article-title-0').fill(text.articleEn);
  // What an attacker would type: the preview (the server's answer) and the stored text keep only the safe part.
  await articleDrawer
    .getByTestId('article-body-0')
    .fill(`<p onclick="alert(1)">Prices <strong>${tag}</strong></p><script>alert(1)</script><img src=x onerror="alert(1)">`);
  await expect(articleDrawer.getByTestId('article-body-0-preview')).toHaveJSProperty(
    'innerHTML',
    `<p>Prices <strong>${tag}</strong></p>`,
  );
  await articleDrawer.getByTestId('article-add-language').click();
  await chooseLanguage(console, articleDrawer, 1, 'zh-Hans');
  await articleDrawer.getByTestId('article-title-1').fill(text.articleZh);
  await articleDrawer.getByTestId('article-body-1').fill(`<p>价格 <em>${tag}</em></p>`);
  expect(
    await answerOf(console, 'POST', /^\/api\/admin\/content\/articles$/, () => articleDrawer.getByTestId('article-save').click()),
  ).toMatchObject({
    code: 200,
  });
  await expect(console.getByTestId('article-row').filter({ hasText: text.articleEn })).toHaveCount(1);

  // ── Members: English has its own version; Japanese falls back to the platform default (zh-Hans) ──
  const cases: {
    locale: Locale;
    banner: string;
    notice: string;
    article: string;
    body: string;
    shownIn: Locale;
    market: string;
  }[] = [
    {
      locale: 'en',
      banner: text.bannerEn,
      notice: text.noticeEn,
      article: text.articleEn,
      body: `<p>Prices <strong>${tag}</strong></p>`,
      shownIn: 'en',
      market: en.content.types.market,
    },
    {
      locale: 'ja',
      banner: text.bannerZh,
      notice: text.noticeZh,
      article: text.articleZh,
      body: `<p>价格 <em>${tag}</em></p>`,
      shownIn: 'zh-Hans',
      market: ja.content.types.market,
    },
  ];
  for (const { locale, banner, notice, article, body, shownIn, market } of cases) {
    // The second member reads in a browser of its own (the guard watches it too).
    const memberPage = locale === 'en' ? page : await browser.newPage({ baseURL: test.info().project.use.baseURL });
    const errors = collectErrors(memberPage);
    const member = await members.create(`content-${locale}`);
    await prepareStorage(memberPage, { credential: member.token, locale });
    await memberPage.goto('/#/pages/index/index');

    await expect(memberPage.getByTestId('home-news-market')).toBeVisible();
    const shownBanner = memberPage.getByTestId('home-banner').filter({ hasText: banner }).first();
    await expect(shownBanner).toHaveAttribute('data-locale', shownIn);
    // The image came from this origin and was drawn (the CSP guard fails the test on any violation).
    await expect
      .poll(() => shownBanner.locator('img').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
      .toBe(true);
    await expect(memberPage.getByTestId('home-notices')).toContainText(notice);
    const latest = memberPage.getByTestId('home-news-market');
    await expect(latest.getByText(market)).toBeVisible();
    const item = latest.getByTestId('home-news-item').filter({ hasText: article });
    await expect(item).toHaveAttribute('data-locale', shownIn);

    await item.click();
    await expect(memberPage.getByTestId('news-article-title')).toHaveText(article);
    await expect(memberPage.getByTestId('news-article')).toHaveAttribute('data-locale', shownIn);
    await expect(memberPage.getByTestId('news-article-body')).toHaveJSProperty('innerHTML', body);

    await memberPage.goto('/#/pages/index/index5?tab=market');
    await expect(memberPage.getByTestId('news-tab-market')).toHaveText(market);
    await expect(memberPage.getByTestId('news-item').filter({ hasText: article })).toHaveAttribute('data-locale', shownIn);
    expect(errors).toEqual([]);
    if (memberPage !== page) await memberPage.close();
  }
});
