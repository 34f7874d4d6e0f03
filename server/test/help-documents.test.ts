import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_DEFAULT_MAX_BYTES, documentPath, translate } from '@custos/contract';
import { queryRows } from '../src/db/client.js';
import { simplePdf } from '../src/lib/simple-pdf.js';
import { operatorToken, registerMember } from './support/members.js';
import { dataOf, operatorCall as consoleCall, type Method } from './support/console-calls.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The help centre and platform documents (decision 028), on PGlite and PostgreSQL. */

let t: TestApp;
let alice: string;
let support: string;
let reviewer: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await registerMember(t, 'alice-help@example.com');
  support = await operatorToken(t, 'support-help', 'support');
  reviewer = await operatorToken(t, 'reviewer-help', 'reviewer');
});
afterAll(async () => {
  await t.close();
});

function operatorCall(method: Method, url: string, token: string, payload?: object) {
  return consoleCall(t, method, url, token, payload);
}
function memberCall(url: string, lang = 'EN', token: string | null = null) {
  return t.app.inject({ method: 'GET', url, headers: { ...(token ? { authorization: token } : {}), lang } });
}
async function count(table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  );
  return row!.n;
}
async function auditOf(targetId: string) {
  return queryRows<{ action: string; username: string }>(
    t.testDatabase.database.db,
    sql`select a.action, o.username from audit_log a join operators o on o.id = a.operator_id
        where a.target_id = ${targetId} order by a.created_at, a.id`,
  );
}
async function category(translations: { locale: string; name: string }[], sortOrder = 0): Promise<string> {
  return (
    await dataOf<{ id: string }>(operatorCall('POST', '/api/admin/content/help_categories', support, { sortOrder, translations }))
  ).id;
}
async function helpArticle(body: object): Promise<string> {
  return (await dataOf<{ id: string }>(operatorCall('POST', '/api/admin/content/help_articles', support, body))).id;
}

interface HelpItem {
  id: string;
  title: string;
  locale: string;
  snippet?: string;
}

describe('help centre', () => {
  it('stores sanitised bodies, shows the member’s language else the default (zh-Hans), and hides drafts', async () => {
    const accounts = await category(
      [
        { locale: 'zh-Hans', name: '账户' },
        { locale: 'en', name: 'Accounts' },
      ],
      1,
    );
    const published = await helpArticle({
      categoryId: accounts,
      status: 'published',
      sortOrder: 2,
      translations: [
        {
          locale: 'en',
          title: 'Reset your password',
          bodyHtml:
            '<p onclick="steal()">Open <strong>Security</strong></p><script>alert(1)</script><img src="https://evil.example/x.png" onerror="alert(1)"><a href="javascript:alert(1)">x</a>',
        },
        { locale: 'zh-Hans', title: '重置密码', bodyHtml: '<p>打开<em>安全中心</em></p>' },
      ],
    });
    const zhOnly = await helpArticle({
      categoryId: accounts,
      status: 'published',
      sortOrder: 1,
      translations: [{ locale: 'zh-Hans', title: '绑定谷歌验证器', bodyHtml: '<p>在设置中绑定</p>' }],
    });
    const draft = await helpArticle({
      categoryId: accounts,
      status: 'draft',
      translations: [{ locale: 'en', title: 'Draft only', bodyHtml: '<p>Not yet</p>' }],
    });
    const koOnly = await helpArticle({
      categoryId: accounts,
      status: 'published',
      translations: [{ locale: 'ko', title: '한국어만', bodyHtml: '<p>한국어</p>' }],
    });

    const english = await dataOf<HelpItem[]>(memberCall(`/api/common/help_list?categoryId=${accounts}`));
    // Order first (1 before 2); the Korean-only article is not shown in English; the draft never.
    expect(english.map(({ id, title, locale }) => ({ id, title, locale }))).toEqual([
      { id: zhOnly, title: '绑定谷歌验证器', locale: 'zh-Hans' },
      { id: published, title: 'Reset your password', locale: 'en' },
    ]);
    const korean = await dataOf<HelpItem[]>(memberCall(`/api/common/help_list?categoryId=${accounts}`, 'KO'));
    expect(korean.map((item) => item.id)).toEqual([koOnly, zhOnly, published]);
    expect(korean.find((item) => item.id === published)?.locale).toBe('zh-Hans');

    const detail = await dataOf<{ bodyHtml: string; title: string; categoryName: string; locale: string }>(
      memberCall(`/api/common/help_detail?id=${published}`),
    );
    expect(detail).toMatchObject({ title: 'Reset your password', categoryName: 'Accounts', locale: 'en' });
    expect(detail.bodyHtml).toBe(
      '<p>Open <strong>Security</strong></p><a target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
    const japanese = await dataOf<{ bodyHtml: string; locale: string; categoryName: string }>(
      memberCall(`/api/common/help_detail?id=${published}`, 'JP'),
    );
    expect(japanese).toMatchObject({ bodyHtml: '<p>打开<em>安全中心</em></p>', locale: 'zh-Hans', categoryName: '账户' });
    expect((await memberCall(`/api/common/help_detail?id=${draft}`)).json()).toMatchObject({ code: 404 });

    const categories = await dataOf<{ id: string; name: string; articleCount: number }[]>(
      memberCall('/api/common/help_categories'),
    );
    expect(categories.find((entry) => entry.id === accounts)).toMatchObject({ name: 'Accounts', articleCount: 2 });
  });

  it('refuses a body that is nothing but script and an unknown category, storing nothing', async () => {
    const general = await category([{ locale: 'en', name: 'General' }]);
    const before = await count('help_articles');
    const script = await operatorCall('POST', '/api/admin/content/help_articles', support, {
      categoryId: general,
      status: 'published',
      translations: [{ locale: 'en', title: 'x', bodyHtml: '<script>alert(1)</script><style>p{}</style>' }],
    });
    expect(script.json()).toEqual({ code: 400, message: 'The text is empty once unsafe parts are removed', data: null });
    const missing = await operatorCall('POST', '/api/admin/content/help_articles', support, {
      categoryId: '00000000-0000-4000-8000-000000000000',
      status: 'published',
      translations: [{ locale: 'en', title: 'x', bodyHtml: '<p>x</p>' }],
    });
    expect(missing.json()).toEqual({ code: 400, message: 'That help category does not exist', data: null });
    expect(await count('help_articles')).toBe(before);
  });

  it('searches titles and text in the version the member reads, titles first, with input checked and bounded', async () => {
    const fees = await category([{ locale: 'en', name: 'Fees' }], 2);
    const byTitle = await helpArticle({
      categoryId: fees,
      status: 'published',
      translations: [
        { locale: 'en', title: 'Withdrawal fee table', bodyHtml: '<p>What each network costs.</p>' },
        { locale: 'zh-Hans', title: '提现手续费表', bodyHtml: '<p>各网络的费用。</p>' },
      ],
    });
    const byBody = await helpArticle({
      categoryId: fees,
      status: 'published',
      translations: [
        {
          locale: 'en',
          title: 'Limits',
          bodyHtml: '<p>The daily <strong>withdrawal</strong> limit is 100,000 USDT &amp; more.</p>',
        },
      ],
    });
    // Tags never match: "strong" is markup, not text.
    await helpArticle({
      categoryId: fees,
      status: 'draft',
      translations: [{ locale: 'en', title: 'Withdrawal draft', bodyHtml: '<p>hidden</p>' }],
    });

    const results = await dataOf<HelpItem[]>(memberCall(`/api/common/help_search?q=${encodeURIComponent('  WITHDRAWAL ')}`));
    expect(results.map((item) => item.id)).toEqual([byTitle, byBody]);
    expect(results[1]!.snippet).toContain('daily withdrawal limit is 100,000 USDT & more.');
    expect(await dataOf<HelpItem[]>(memberCall('/api/common/help_search?q=strong'))).toEqual([]);
    // `%` and `_` are text, not wildcards.
    expect(await dataOf<HelpItem[]>(memberCall('/api/common/help_search?q=%25'))).toEqual([]);

    // Japanese reads the default (zh-Hans) version: Chinese text matches as a substring, English does not.
    const chinese = await dataOf<HelpItem[]>(memberCall(`/api/common/help_search?q=${encodeURIComponent('手续费')}`, 'JP'));
    expect(chinese.map(({ id, locale }) => ({ id, locale }))).toEqual([{ id: byTitle, locale: 'zh-Hans' }]);
    expect(await dataOf<HelpItem[]>(memberCall('/api/common/help_search?q=table', 'JP'))).toEqual([]);

    expect((await memberCall('/api/common/help_search?q=%20%20')).json()).toMatchObject({ code: 400 });
    const long = await memberCall(`/api/common/help_search?q=${'a'.repeat(51)}`, 'JP');
    expect(long.json()).toEqual({
      code: 400,
      message: translate('ja', 'field_error', { field: translate('ja', 'field.q'), reason: translate('ja', 'reason.too_long') }),
      data: null,
    });
  });

  it('lets only content managers write, audits every change, and keeps a category with articles', async () => {
    const body = { translations: [{ locale: 'en', name: 'Nope' }] };
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/admin/content/help_categories', payload: body })).json(),
    ).toMatchObject({
      code: 401,
    });
    expect((await operatorCall('POST', '/api/admin/content/help_categories', reviewer, body)).json()).toMatchObject({
      code: 403,
    });
    expect((await operatorCall('GET', '/api/admin/content/help_articles', reviewer)).json()).toMatchObject({ code: 403 });
    expect((await operatorCall('POST', '/api/admin/content/help_categories', alice, body)).json()).toMatchObject({ code: 401 });

    const id = await category([{ locale: 'en', name: 'Security' }]);
    const article = await helpArticle({
      categoryId: id,
      status: 'draft',
      translations: [{ locale: 'en', title: 'Two-factor', bodyHtml: '<p>Use an authenticator.</p>' }],
    });
    await dataOf(
      operatorCall('PUT', `/api/admin/content/help_articles/${article}`, support, {
        categoryId: id,
        status: 'published',
        translations: [{ locale: 'en', title: 'Two-factor', bodyHtml: '<p>Use an authenticator.</p>' }],
      }),
    );
    const emptied = await operatorCall('DELETE', `/api/admin/content/help_categories/${id}`, support);
    expect(emptied.json()).toEqual({
      code: 400,
      message: 'This category still has articles: move or delete them first',
      data: null,
    });
    await dataOf(operatorCall('DELETE', `/api/admin/content/help_articles/${article}`, support));
    await dataOf(operatorCall('DELETE', `/api/admin/content/help_categories/${id}`, support));

    expect(await auditOf(article)).toEqual([
      { action: 'content.help_article_created', username: 'support-help' },
      { action: 'content.help_article_published', username: 'support-help' },
      { action: 'content.help_article_deleted', username: 'support-help' },
    ]);
    expect(await auditOf(id)).toEqual([
      { action: 'content.help_category_created', username: 'support-help' },
      { action: 'content.help_category_deleted', username: 'support-help' },
    ]);
  });
});

describe('documents', () => {
  const pdf = simplePdf([['Custos white paper', 'Chapter one'], ['Chapter two']], 'White paper');

  async function newDocument(kind: string): Promise<string> {
    return (await dataOf<{ id: string }>(operatorCall('POST', '/api/admin/content/documents', support, { kind }))).id;
  }
  function upload(id: string, body: object, token = support) {
    return operatorCall('POST', `/api/admin/content/documents/${id}/versions`, token, body);
  }

  it('accepts a real PDF as versions per language, serves the newest published one, and falls back to the default', async () => {
    const id = await newDocument('white_paper');
    const first = await dataOf<{ id: string; version: number }>(
      upload(id, { locale: 'zh-Hans', title: '白皮书', contentBase64: pdf.toString('base64') }),
    );
    const second = await dataOf<{ id: string; version: number }>(
      upload(id, { locale: 'zh-Hans', title: '白皮书 v2', contentBase64: simplePdf([['v2']]).toString('base64') }),
    );
    const english = await dataOf<{ id: string; version: number }>(
      upload(id, { locale: 'en', title: 'White paper', contentBase64: pdf.toString('base64') }),
    );
    const draft = await dataOf<{ id: string; version: number }>(
      upload(id, { locale: 'en', title: 'White paper draft', publish: false, contentBase64: pdf.toString('base64') }),
    );
    expect([first.version, second.version, english.version, draft.version]).toEqual([1, 2, 1, 2]);

    const url = documentPath(id);
    const shownEn = await dataOf<{ title: string; version: number; locale: string; fileUrl: string; kind: string }>(
      memberCall(`/api/common/document?url=${encodeURIComponent(url)}`),
    );
    // The unpublished English version 2 is not shown: the newest published is version 1.
    expect(shownEn).toMatchObject({ title: 'White paper', version: 1, locale: 'en', kind: 'white_paper' });
    const shownJa = await dataOf<{ title: string; version: number; locale: string; fileUrl: string }>(
      memberCall(`/api/common/document?url=${encodeURIComponent(url)}`, 'JP'),
    );
    expect(shownJa).toMatchObject({ title: '白皮书 v2', version: 2, locale: 'zh-Hans' });

    const file = await t.app.inject({ method: 'GET', url: shownEn.fileUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.rawPayload.equals(pdf)).toBe(true);
    const byPath = await t.app.inject({ method: 'GET', url, headers: { lang: 'EN' } });
    expect(byPath.rawPayload.equals(pdf)).toBe(true);
    // An unpublished version's file is not served.
    expect((await t.app.inject({ method: 'GET', url: `/api/content/document_file/${draft.id}` })).statusCode).toBe(404);

    const list = await dataOf<{ id: string; kind: string; locale: string }[]>(memberCall('/api/common/documents', 'JP'));
    expect(list.find((item) => item.id === id)).toMatchObject({ kind: 'white_paper', locale: 'zh-Hans' });

    // Withdrawing version 2 shows version 1 again.
    await dataOf(operatorCall('PUT', `/api/admin/content/document_versions/${second.id}`, support, { published: false }));
    expect(
      await dataOf<{ version: number }>(memberCall(`/api/common/document?url=${encodeURIComponent(url)}`, 'JP')),
    ).toMatchObject({
      version: 1,
    });
    expect((await auditOf(id)).map((row) => row.action)).toEqual([
      'content.document_created',
      'content.document_uploaded',
      'content.document_uploaded',
      'content.document_uploaded',
      'content.document_uploaded',
    ]);
    expect(await auditOf(second.id)).toEqual([{ action: 'content.document_withdrawn', username: 'support-help' }]);
  });

  it('refuses a fake PDF and one over the size setting, storing nothing, in the caller’s language', async () => {
    const id = await newDocument('terms');
    const before = await count('document_versions');
    const fake = await upload(id, {
      locale: 'en',
      title: 'Terms',
      contentBase64: Buffer.from('<html><script>alert(1)</script>%PDF-1.4</html>').toString('base64'),
    });
    expect(fake.json()).toEqual({ code: 400, message: 'The file is not a PDF', data: null });
    const png = await upload(id, {
      locale: 'en',
      title: 'Terms',
      contentBase64: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64'),
    });
    expect(png.json()).toMatchObject({ code: 400, message: 'The file is not a PDF' });

    await dataOf(operatorCall('PUT', '/api/admin/content/document_settings', support, { maxBytes: 64 * 1024 }));
    const padded = Buffer.concat([pdf, Buffer.alloc(64 * 1024, 0x20)]);
    const large = await t.app.inject({
      method: 'POST',
      url: `/api/admin/content/documents/${id}/versions`,
      headers: { authorization: `Bearer ${support}`, lang: 'CN' },
      payload: { locale: 'en', title: 'Terms', contentBase64: padded.toString('base64') },
    });
    expect(large.json()).toEqual({ code: 400, message: 'PDF 超过 0.1 MB', data: null });
    expect(await count('document_versions')).toBe(before);
    await dataOf(operatorCall('PUT', '/api/admin/content/document_settings', support, { maxBytes: DOCUMENT_DEFAULT_MAX_BYTES }));
    await dataOf(upload(id, { locale: 'en', title: 'Terms', contentBase64: padded.toString('base64') }));
    expect(await count('document_versions')).toBe(before + 1);
  });

  it('refuses a viewer url that is not a platform document and never requests it', async () => {
    let requests = 0;
    const server: Server = createServer((_request, response) => {
      requests += 1;
      response.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const url of [
        `http://127.0.0.1:${port}/x.pdf`,
        'https://example.com/x.pdf',
        `//127.0.0.1:${port}/api/content/document/00000000-0000-4000-8000-000000000000`,
        `/api/content/document/00000000-0000-4000-8000-000000000000/../../../x`,
        'terms',
      ]) {
        const refused = await memberCall(`/api/common/document?url=${encodeURIComponent(url)}`, 'JP');
        expect(refused.json(), url).toEqual({
          code: 400,
          message: translate('ja', 'field_error', {
            field: translate('ja', 'field.url'),
            reason: translate('ja', 'reason.platform_document'),
          }),
          data: null,
        });
      }
      // A platform path of no document: not found, still nothing fetched.
      const unknown = await memberCall(
        `/api/common/document?url=${encodeURIComponent(documentPath('00000000-0000-4000-8000-000000000000'))}`,
      );
      expect(unknown.json()).toMatchObject({ code: 404 });
      expect(requests).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('lets only content managers upload and change documents', async () => {
    expect((await operatorCall('POST', '/api/admin/content/documents', reviewer, { kind: 'privacy' })).json()).toMatchObject({
      code: 403,
    });
    const id = await newDocument('privacy');
    const before = await count('document_versions');
    expect(
      (await upload(id, { locale: 'en', title: 'P', contentBase64: pdf.toString('base64') }, reviewer)).json(),
    ).toMatchObject({
      code: 403,
    });
    expect((await operatorCall('GET', '/api/admin/content/documents', reviewer)).json()).toMatchObject({ code: 403 });
    expect(
      (await operatorCall('PUT', '/api/admin/content/document_settings', reviewer, { maxBytes: 2048 })).json(),
    ).toMatchObject({
      code: 403,
    });
    expect(await count('document_versions')).toBe(before);
    const [setting] = await auditOf('documents');
    expect(setting).toEqual({ action: 'content.document_settings_updated', username: 'support-help' });
  });
});
