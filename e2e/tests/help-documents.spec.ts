import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { badgeText, documentPath, type Locale } from '@custos/contract';
import { simplePdf } from '../../server/src/lib/simple-pdf';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import ja from '../../web/src/app/i18n/locales/ja.json' with { type: 'json' };
import { collectErrors, prepareStorage } from '../support/app';
import { answerOf, chooseOption, openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';

/** Fills a language select (found by its label) in an open drawer or form. */
async function chooseLanguage(page: Page, select: Locator, locale: Locale) {
  const labels: Record<string, string> = { en: 'English (en)', 'zh-Hans': '简体中文 (zh-Hans)' };
  await chooseOption(page, select, labels[locale]!);
}

/** Uploads a PDF as the next version of the document in `row`, in one language. */
async function uploadVersion(page: Page, row: Locator, locale: Locale, title: string, pdf: Buffer) {
  await chooseLanguage(page, row.getByLabel('Language'), locale);
  await row.getByTestId('document-upload-title').fill(title);
  await row.getByTestId('document-upload-file').setInputFiles({ name: 'document.pdf', mimeType: 'application/pdf', buffer: pdf });
  expect(
    await answerOf(page, 'POST', /^\/api\/admin\/content\/documents\/[^/]+\/versions$/, () =>
      row.getByTestId('document-upload-save').click(),
    ),
  ).toMatchObject({ code: 200 });
  await expect(row.getByRole('row').filter({ hasText: title })).toHaveCount(1);
}

test('an operator publishes a help article and a document; members find the article and read the PDF in English and, falling back, in Japanese', async ({
  page,
  browser,
  members,
  operators,
  openConsole,
}) => {
  // Two apps and two members in one story: the console specs' budget (decision 013).
  test.setTimeout(120_000);
  const tag = randomBytes(4).toString('hex');
  const text = {
    categoryEn: `Fees ${tag}`,
    categoryZh: `费用 ${tag}`,
    titleEn: `Network fee ${tag}`,
    titleZh: `网络手续费 ${tag}`,
    documentEn: `Guide ${tag}`,
    documentZh: `指南 ${tag}`,
  };

  // ── The console ──────────────────────────────────────────────────────────────────────────────
  const console = await openConsole(await operators.create('support'));
  await openConsolePage(console, 'Content');

  await console.getByRole('tab', { name: 'Help categories' }).click();
  await console.getByTestId('content-new-help-category').click();
  const categoryDrawer = console.locator('.ant-drawer-open');
  await categoryDrawer.getByTestId('help-category-name-0').fill(text.categoryEn);
  await categoryDrawer.getByTestId('help-category-add-language').click();
  await chooseLanguage(console, categoryDrawer.getByLabel('Language').nth(1), 'zh-Hans');
  await categoryDrawer.getByTestId('help-category-name-1').fill(text.categoryZh);
  expect(
    await answerOf(console, 'POST', /^\/api\/admin\/content\/help_categories$/, () =>
      categoryDrawer.getByTestId('help-category-save').click(),
    ),
  ).toMatchObject({ code: 200 });
  await expect(console.getByTestId('help-category-row').filter({ hasText: text.categoryEn })).toHaveCount(1);

  await console.getByRole('tab', { name: 'Help articles' }).click();
  await console.getByTestId('content-new-help-article').click();
  const articleDrawer = console.locator('.ant-drawer-open');
  // Many categories may exist: the select filters by what is typed.
  await articleDrawer.getByLabel('Category').click();
  await console.keyboard.type(tag);
  const options = console.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  await options.locator('.ant-select-item-option', { hasText: `${text.categoryEn} / ${text.categoryZh}` }).click();
  await expect(options).toHaveCount(0);
  await chooseOption(console, articleDrawer.getByLabel('Status'), 'Published');
  await articleDrawer.getByTestId('help-article-title-0').fill(text.titleEn);
  // What an attacker would type: the preview (the server's answer) and the stored text keep only the safe part.
  await articleDrawer
    .getByTestId('help-article-body-0')
    .fill(`<p onmouseover="alert(1)">Each withdrawal pays <strong>${tag}</strong></p><script>alert(1)</script>`);
  await expect(articleDrawer.getByTestId('help-article-body-0-preview')).toHaveJSProperty(
    'innerHTML',
    `<p>Each withdrawal pays <strong>${tag}</strong></p>`,
  );
  await articleDrawer.getByTestId('help-article-add-language').click();
  await chooseLanguage(console, articleDrawer.getByLabel('Language').nth(1), 'zh-Hans');
  await articleDrawer.getByTestId('help-article-title-1').fill(text.titleZh);
  // The Chinese version is written in the rich-text editor: text, the italic button, more text.
  await articleDrawer.getByTestId('help-article-body-1-rich').click();
  await console.keyboard.type('每笔提现收取 ');
  await articleDrawer.getByTestId('help-article-body-1-italic').click();
  await console.keyboard.type(tag);
  await expect(articleDrawer.getByTestId('help-article-body-1')).toHaveValue(`<p>每笔提现收取 <em>${tag}</em></p>`);
  await expect(articleDrawer.getByTestId('help-article-body-1-preview')).toHaveJSProperty(
    'innerHTML',
    `<p>每笔提现收取 <em>${tag}</em></p>`,
  );
  expect(
    await answerOf(console, 'POST', /^\/api\/admin\/content\/help_articles$/, () =>
      articleDrawer.getByTestId('help-article-save').click(),
    ),
  ).toMatchObject({ code: 200 });
  await expect(console.getByTestId('help-article-row').filter({ hasText: text.titleEn })).toHaveCount(1);

  await console.getByRole('tab', { name: 'Documents' }).click();
  await chooseOption(console, console.getByLabel('Kind'), 'Other');
  const created = await answerOf(console, 'POST', /^\/api\/admin\/content\/documents$/, () =>
    console.getByTestId('content-new-document').click(),
  );
  expect(created).toMatchObject({ code: 200 });
  const documentId = (created.data as { id: string }).id;
  const row = console.locator(`[data-document-id="${documentId}"]`);
  await uploadVersion(console, row, 'en', text.documentEn, simplePdf([['English, page one'], ['English, page two']], 'Guide'));
  await uploadVersion(
    console,
    row,
    'zh-Hans',
    text.documentZh,
    simplePdf([['Chinese edition, page one'], ['page two'], ['page three']], 'Guide'),
  );

  // ── Members: English has its own versions; Japanese falls back to the platform default (zh-Hans) ──
  const cases = [
    {
      locale: 'en',
      title: text.titleEn,
      body: `<p>Each withdrawal pays <strong>${tag}</strong></p>`,
      document: text.documentEn,
      pages: 2,
      strings: en,
    },
    {
      locale: 'ja',
      title: text.titleZh,
      body: `<p>每笔提现收取 <em>${tag}</em></p>`,
      document: text.documentZh,
      pages: 3,
      strings: ja,
    },
  ] as const;
  for (const { locale, title, body, document, pages, strings } of cases) {
    const memberPage = locale === 'en' ? page : await browser.newPage({ baseURL: test.info().project.use.baseURL });
    const errors = collectErrors(memberPage);
    const member = await members.create(`help-${locale}`);
    await prepareStorage(memberPage, { credential: member.token, locale });
    const shownIn = locale === 'en' ? 'en' : 'zh-Hans';

    // The help centre: search by a word of the text, in the version the member reads.
    await memberPage.goto('/#/pages/second/second1');
    const search = memberPage.getByTestId('help-search').locator('input');
    await search.fill(tag);
    await search.press('Enter');
    const found = memberPage.getByTestId('help-results').getByTestId('help-item').filter({ hasText: title });
    await expect(found).toHaveAttribute('data-locale', shownIn);
    await found.click();
    await expect(memberPage.getByTestId('help-article-title')).toHaveText(title);
    await expect(memberPage.getByTestId('help-article-body')).toHaveJSProperty('innerHTML', body);

    // The document in the app's own viewer: page count, next page, zoom.
    await memberPage.goto(`/#/pages/pdf/pdf?url=${encodeURIComponent(documentPath(documentId))}`);
    await expect(memberPage.getByTestId('pdf-title')).toHaveText(document);
    const pageInfo = memberPage.getByTestId('pdf-page');
    await expect(pageInfo).toHaveAttribute('data-rendered', '1');
    await expect(pageInfo).toHaveText(strings.pdf.pageOf.replace('{{page}}', '1').replace('{{count}}', String(pages)));
    await expect(memberPage.getByTestId('pdf-viewer')).toHaveAttribute('data-locale', shownIn);
    // Something was drawn: the canvas is not blank.
    await expect
      .poll(() =>
        memberPage.getByTestId('pdf-canvas').evaluate((canvas: HTMLCanvasElement) => {
          const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
          for (let index = 0; index < data.length; index += 4) if (data[index]! < 128) return true;
          return false;
        }),
      )
      .toBe(true);
    await memberPage.getByTestId('pdf-next').click();
    await expect(pageInfo).toHaveAttribute('data-rendered', '2');
    await expect(pageInfo).toHaveText(strings.pdf.pageOf.replace('{{page}}', '2').replace('{{count}}', String(pages)));
    const width = await memberPage.getByTestId('pdf-canvas').evaluate((canvas) => canvas.getBoundingClientRect().width);
    await memberPage.getByTestId('pdf-zoom-in').click();
    await expect(memberPage.getByTestId('pdf-zoom')).toHaveText('125%');
    await expect
      .poll(() => memberPage.getByTestId('pdf-canvas').evaluate((canvas) => canvas.getBoundingClientRect().width))
      .toBeGreaterThan(width);
    expect(errors).toEqual([]);
    if (memberPage !== page) await memberPage.close();
  }
});

test('a PDF address outside the platform is refused in the member’s language and never requested', async ({ page, members }) => {
  const errors = collectErrors(page);
  const member = await members.create('pdf-outside');
  await prepareStorage(page, { credential: member.token, locale: 'ja' });
  const requested: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.hostname === 'example.com' || url.pathname.startsWith('/api/common/document')) requested.push(request.url());
  });
  await page.goto(`/#/pages/pdf/pdf?url=${encodeURIComponent('https://example.com/x.pdf')}`);
  await expect(page.getByTestId('pdf-refused')).toContainText(ja.pdf.refused);
  await page.goto(`/#/pages/pdf/pdf?url=${encodeURIComponent('//example.com/api/content/document/x')}`);
  await expect(page.getByTestId('pdf-refused')).toContainText(ja.pdf.refused);
  expect(requested).toEqual([]);
  expect(errors).toEqual([]);
});

test('unread announcements are badged from the server’s read marks, and opening one clears it', async ({
  page,
  members,
  operators,
  openConsole,
}) => {
  test.setTimeout(120_000);
  const tag = randomBytes(4).toString('hex');
  const console = await openConsole(await operators.create('support'));
  await openConsolePage(console, 'Content');
  await console.getByRole('tab', { name: 'News articles' }).click();
  await console.getByTestId('content-new-article').click();
  const drawer = console.locator('.ant-drawer-open');
  await chooseOption(console, drawer.getByLabel('Status'), 'Published');
  await drawer.getByTestId('article-title-0').fill(`Announcement ${tag}`);
  await drawer.getByTestId('article-body-0').fill(`<p>${tag}</p>`);
  expect(
    await answerOf(console, 'POST', /^\/api\/admin\/content\/articles$/, () => drawer.getByTestId('article-save').click()),
  ).toMatchObject({ code: 200 });

  const errors = collectErrors(page);
  const member = await members.create('badge');
  await prepareStorage(page, { credential: member.token, locale: 'en' });
  // The badge shows what the server counted for this member (other tests may publish meanwhile).
  const unreadCount = async (open: () => Promise<unknown>) => {
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/common/news_unread');
    await open();
    return ((await (await answered).json()) as { data: { announcements: number } }).data.announcements;
  };
  const before = await unreadCount(() => page.goto('/#/pages/index/index5?tab=announcement'));
  expect(before).toBeGreaterThanOrEqual(1);
  const badge = page.getByTestId('news-unread-badge');
  await expect(badge).toHaveAttribute('data-count', String(before));
  await expect(badge).toContainText(badgeText(before));
  const item = page.getByTestId('news-item').filter({ hasText: `Announcement ${tag}` });
  await expect(item).toHaveAttribute('data-unread', 'true');

  // Opening it records the read on the server; the badge reads the count again.
  const after = await unreadCount(() => item.click());
  await expect(page.getByTestId('news-article-title')).toHaveText(`Announcement ${tag}`);
  await page.goBack();
  if (after > 0) await expect(badge).toHaveAttribute('data-count', String(after));
  else await expect(badge).toHaveCount(0);
  await expect(page.getByTestId('news-item').filter({ hasText: `Announcement ${tag}` })).toHaveAttribute('data-unread', 'false');
  // Kept on the server, not in the browser: after a reload it is still read.
  await page.reload();
  await expect(page.getByTestId('news-item').filter({ hasText: `Announcement ${tag}` })).toHaveAttribute('data-unread', 'false');
  expect(errors).toEqual([]);
});
