import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { operatorToken, registerMember } from './support/members.js';
import { dataOf, operatorCall as consoleCall, type Method } from './support/console-calls.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The smallest real PNG (1×1, transparent). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

// The platform's clock: real time moved by an offset the tests advance (authenticator codes follow it).
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const HOUR = 3600_000;

let t: TestApp;
let alice: string;
let bob: string;
let support: string;
let reviewer: string;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  alice = await registerMember(t, 'alice-content@example.com');
  bob = await registerMember(t, 'bob-content@example.com');
  support = await operatorToken(t, 'support-content', 'support');
  reviewer = await operatorToken(t, 'reviewer-content', 'reviewer');
});
afterAll(async () => {
  await t.close();
});

function operatorCall(method: Method, url: string, token: string, payload?: object) {
  return consoleCall(t, method, url, token, payload);
}
function memberCall(url: string, token: string | null, lang = 'EN') {
  return t.app.inject({ method: 'GET', url, headers: { ...(token ? { authorization: token } : {}), lang } });
}
async function uploadImage(token = support): Promise<string> {
  return (
    await dataOf<{ id: string; url: string }>(
      operatorCall('POST', '/api/admin/content/images', token, { contentBase64: TINY_PNG.toString('base64') }),
    )
  ).id;
}
async function tableCount(table: 'content_images' | 'banners' | 'notices' | 'articles'): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.testDatabase.database.db,
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  );
  return row!.n;
}
function at(ms: number): string {
  return new Date(clock.now().getTime() + ms).toISOString();
}

describe('content images', () => {
  it('accepts a real PNG, serves it publicly from this origin, and refuses a fake image storing nothing', async () => {
    const before = await tableCount('content_images');
    const fake = await operatorCall('POST', '/api/admin/content/images', support, {
      contentBase64: Buffer.from('GIF89a<script>alert(1)</script>').toString('base64'),
    });
    expect(fake.json()).toEqual({ code: 400, message: 'Only JPEG, PNG or WebP images are accepted', data: null });
    const svg = await operatorCall('POST', '/api/admin/content/images', support, {
      contentBase64: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').toString('base64'),
    });
    expect(svg.json()).toMatchObject({ code: 400, message: 'Only JPEG, PNG or WebP images are accepted' });
    expect(await tableCount('content_images')).toBe(before);

    const uploaded = await dataOf<{ id: string; url: string }>(
      operatorCall('POST', '/api/admin/content/images', support, { contentBase64: TINY_PNG.toString('base64') }),
    );
    expect(uploaded.url).toBe(`/api/content/image/${uploaded.id}`);
    const served = await t.app.inject({ method: 'GET', url: uploaded.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'");
    expect(served.rawPayload.equals(TINY_PNG)).toBe(true);
    expect(await tableCount('content_images')).toBe(before + 1);
  });

  it('refuses a banner whose image is a member’s private upload', async () => {
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/upload/image',
      headers: { authorization: alice, lang: 'EN' },
      payload: { purpose: 'feedback', contentBase64: TINY_PNG.toString('base64') },
    });
    const privateId = upload.json<{ data: { id: string } }>().data.id;
    const before = await tableCount('banners');
    const refused = await operatorCall('POST', '/api/admin/content/banners', support, {
      translations: [{ locale: 'en', title: 'Mine', imageId: privateId }],
    });
    expect(refused.json()).toEqual({ code: 400, message: 'An image is missing; please upload it again', data: null });
    expect(await tableCount('banners')).toBe(before);
  });
});

describe('permissions and audit', () => {
  it('lets only content managers write, and records every change with its operator', async () => {
    const image = await uploadImage();
    const body = { translations: [{ locale: 'en', title: 'Forbidden', imageId: image }] };
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/content/banners', payload: body })).json()).toMatchObject({
      code: 401,
    });
    expect((await operatorCall('POST', '/api/admin/content/banners', reviewer, body)).json()).toMatchObject({ code: 403 });
    expect((await operatorCall('GET', '/api/admin/content/articles', reviewer)).json()).toMatchObject({ code: 403 });
    expect((await t.app.inject({ method: 'GET', url: '/api/common/news_list?type=market' })).json()).toMatchObject({ code: 401 });

    const { id } = await dataOf<{ id: string }>(operatorCall('POST', '/api/admin/content/banners', support, body));
    await dataOf(operatorCall('PUT', `/api/admin/content/banners/${id}`, support, { ...body, sortOrder: 5 }));
    expect((await operatorCall('DELETE', `/api/admin/content/banners/${id}`, reviewer)).json()).toMatchObject({ code: 403 });
    await dataOf(operatorCall('DELETE', `/api/admin/content/banners/${id}`, support));
    expect((await operatorCall('DELETE', `/api/admin/content/banners/${id}`, support)).json()).toMatchObject({ code: 404 });

    const audit = await queryRows<{ action: string; username: string }>(
      t.testDatabase.database.db,
      sql`select a.action, o.username from audit_log a join operators o on o.id = a.operator_id
          where a.target_id = ${id} order by a.created_at, a.id`,
    );
    expect(audit).toEqual([
      { action: 'content.banner_created', username: 'support-content' },
      { action: 'content.banner_updated', username: 'support-content' },
      { action: 'content.banner_deleted', username: 'support-content' },
    ]);
  });

  it('refuses bad links and an end before the start, in the caller’s language', async () => {
    const image = await uploadImage();
    const script = await operatorCall('POST', '/api/admin/content/banners', support, {
      link: 'javascript:alert(1)',
      translations: [{ locale: 'en', title: 'x', imageId: image }],
    });
    expect(script.json()).toEqual({
      code: 400,
      message: 'link: must be an app page (/pages/…) or an https:// address',
      data: null,
    });
    const backwards = await operatorCall('POST', '/api/admin/content/notices', support, {
      startsAt: at(2 * HOUR),
      endsAt: at(HOUR),
      translations: [{ locale: 'en', text: 'x' }],
    });
    expect(backwards.json()).toEqual({ code: 400, message: 'show until: must be later than the start', data: null });
    const twice = await operatorCall('POST', '/api/admin/content/notices', support, {
      translations: [
        { locale: 'en', text: 'a' },
        { locale: 'en', text: 'b' },
      ],
    });
    expect(twice.json()).toMatchObject({ code: 400, message: 'language versions: invalid value' });
  });
});

describe('sanitising article bodies', () => {
  it('stores real XSS payloads stripped, and the member reads the stripped HTML', async () => {
    const image = await uploadImage();
    const payload = [
      '<p onclick="alert(1)">Market <strong>up</strong></p>',
      '<script>alert(document.cookie)</script>',
      '<img src=x onerror=alert(1)>',
      `<img src="/api/content/image/${image}" onerror="alert(1)" alt="chart">`,
      '<img src="https://tracker.example/p.png">',
      '<a href="javascript:alert(1)">click</a>',
      '<a href="JaVaScRiPt&colon;alert(1)">click2</a>',
      '<a href="https://example.com/" onmouseover="alert(1)">source</a>',
      '<svg onload=alert(1)><circle/></svg>',
      '<iframe src="https://evil.example"></iframe>',
      '<p style="background:url(javascript:alert(1))">styled</p>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
      '"><img src=x onerror=alert(1)>',
    ].join('');
    const { id } = await dataOf<{ id: string }>(
      operatorCall('POST', '/api/admin/content/articles', support, {
        type: 'market',
        status: 'published',
        translations: [{ locale: 'en', title: 'Sanitised', summary: 'safe', bodyHtml: payload }],
      }),
    );
    const expected =
      '<p>Market <strong>up</strong></p>' +
      `<img src="/api/content/image/${image}" alt="chart" />` +
      '<a target="_blank" rel="noopener noreferrer nofollow">click</a>' +
      '<a target="_blank" rel="noopener noreferrer nofollow">click2</a>' +
      '<a href="https://example.com/" target="_blank" rel="noopener noreferrer nofollow">source</a>' +
      '<p>styled</p><table></table>"&gt;';
    const [stored] = await queryRows<{ body_html: string }>(
      t.testDatabase.database.db,
      sql`select body_html from article_translations where article_id = ${id}`,
    );
    expect(stored!.body_html).toBe(expected);
    const detail = await dataOf<{ bodyHtml: string }>(memberCall(`/api/common/news_detail?id=${id}`, alice));
    expect(detail.bodyHtml).toBe(expected);

    const preview = await dataOf<{ html: string }>(
      operatorCall('POST', '/api/admin/content/preview', support, { html: '<b>ok</b><script>x()</script>' }),
    );
    expect(preview.html).toBe('<b>ok</b>');
  });

  it('refuses a body that is nothing but script, storing nothing', async () => {
    const before = await tableCount('articles');
    const refused = await operatorCall('POST', '/api/admin/content/articles', support, {
      type: 'market',
      status: 'draft',
      translations: [{ locale: 'en', title: 'Empty', bodyHtml: '<script>alert(1)</script>' }],
    });
    expect(refused.json()).toEqual({ code: 400, message: 'The text is empty once unsafe parts are removed', data: null });
    expect(await tableCount('articles')).toBe(before);
  });
});

interface News {
  id: string;
  title: string;
  locale: string;
  unread: boolean;
}

describe('languages, schedules and the unread badge', () => {
  it('shows each piece in the member’s language, else the platform default (zh-Hans), else not at all', async () => {
    const image = await uploadImage();
    const { id: bannerId } = await dataOf<{ id: string }>(
      operatorCall('POST', '/api/admin/content/banners', support, {
        link: '/pages/index/index5',
        translations: [
          { locale: 'en', title: 'Welcome', imageId: image },
          { locale: 'zh-Hans', title: '欢迎', imageId: image },
        ],
      }),
    );
    const { id: koOnly } = await dataOf<{ id: string }>(
      operatorCall('POST', '/api/admin/content/notices', support, { translations: [{ locale: 'ko', text: '공지' }] }),
    );
    const { id: noticeId } = await dataOf<{ id: string }>(
      operatorCall('POST', '/api/admin/content/notices', support, {
        translations: [
          { locale: 'zh-Hans', text: '系统维护' },
          { locale: 'en', text: 'Maintenance' },
        ],
      }),
    );

    const english = await dataOf<{ id: string; title: string; locale: string; link: string; imageUrl: string }[]>(
      memberCall('/api/common/banner', null, 'EN'),
    );
    expect(english.find((banner) => banner.id === bannerId)).toEqual({
      id: bannerId,
      title: 'Welcome',
      imageUrl: `/api/content/image/${image}`,
      link: '/pages/index/index5',
      locale: 'en',
    });
    const japanese = await dataOf<{ id: string; title: string; locale: string }[]>(memberCall('/api/common/banner', null, 'JP'));
    expect(japanese.find((banner) => banner.id === bannerId)).toMatchObject({ title: '欢迎', locale: 'zh-Hans' });

    const notices = async (lang: string) =>
      (await dataOf<{ id: string; text: string; locale: string }[]>(memberCall('/api/common/notice_marquee', null, lang))).filter(
        (notice) => [koOnly, noticeId].includes(notice.id),
      );
    expect(await notices('EN')).toEqual([{ id: noticeId, text: 'Maintenance', locale: 'en' }]);
    expect(await notices('JP')).toEqual([{ id: noticeId, text: '系统维护', locale: 'zh-Hans' }]);
    expect(await notices('KO')).toEqual(
      expect.arrayContaining([
        { id: koOnly, text: '공지', locale: 'ko' },
        { id: noticeId, text: '系统维护', locale: 'zh-Hans' },
      ]),
    );

    // The platform default moves to English: a Japanese member now falls back to it.
    const site = await t.services.settings.get('site');
    await t.services.settings.set('site', { ...site, defaultLocale: 'en' }, null);
    expect(await notices('JP')).toEqual([{ id: noticeId, text: 'Maintenance', locale: 'en' }]);
    await t.services.settings.set('site', site, null);
  });

  it('shows nothing before its time or after its end (the injected clock), and drafts never', async () => {
    const image = await uploadImage();
    const { id: later } = await dataOf<{ id: string }>(
      operatorCall('POST', '/api/admin/content/banners', support, {
        startsAt: at(HOUR),
        endsAt: at(2 * HOUR),
        translations: [{ locale: 'en', title: 'Later', imageId: image }],
      }),
    );
    const { id: scheduled } = await dataOf<{ id: string }>(
      operatorCall('POST', '/api/admin/content/articles', support, {
        type: 'financial',
        status: 'published',
        publishAt: at(HOUR),
        translations: [{ locale: 'en', title: 'Scheduled', bodyHtml: '<p>soon</p>' }],
      }),
    );
    const { id: draft } = await dataOf<{ id: string }>(
      operatorCall('POST', '/api/admin/content/articles', support, {
        type: 'financial',
        status: 'draft',
        translations: [{ locale: 'en', title: 'Draft', bodyHtml: '<p>not yet</p>' }],
      }),
    );
    const bannerIds = async () => (await dataOf<{ id: string }[]>(memberCall('/api/common/banner', null))).map((b) => b.id);
    const financialIds = async () =>
      (await dataOf<{ items: News[] }>(memberCall('/api/common/news_list?type=financial', alice))).items.map((n) => n.id);

    expect(await bannerIds()).not.toContain(later);
    expect(await financialIds()).not.toContain(scheduled);
    expect((await memberCall(`/api/common/news_detail?id=${scheduled}`, alice)).json()).toMatchObject({ code: 404 });

    offsetMs += HOUR + 1000;
    expect(await bannerIds()).toContain(later);
    expect(await financialIds()).toContain(scheduled);
    expect(await financialIds()).not.toContain(draft);
    expect((await memberCall(`/api/common/news_detail?id=${draft}`, alice)).json()).toMatchObject({ code: 404 });

    offsetMs += HOUR;
    expect(await bannerIds()).not.toContain(later);
  });

  it('badges unread announcements per member, and pages newest first', async () => {
    const unread = async (token: string) =>
      (await dataOf<{ announcements: number }>(memberCall('/api/common/news_unread', token))).announcements;
    expect(await unread(alice)).toBe(0);
    const ids: string[] = [];
    for (const [index, title] of ['First', 'Second', 'Third'].entries()) {
      const { id } = await dataOf<{ id: string }>(
        operatorCall('POST', '/api/admin/content/articles', support, {
          type: 'announcement',
          status: 'published',
          publishAt: at(-HOUR + index * 60_000),
          translations: [{ locale: 'en', title, bodyHtml: `<p>${title}</p>` }],
        }),
      );
      ids.push(id);
    }
    expect(await unread(alice)).toBe(3);
    expect(await unread(bob)).toBe(3);

    const page1 = await dataOf<{ items: News[]; total: number }>(
      memberCall('/api/common/news_list?type=announcement&page=1&pageSize=2', alice),
    );
    expect(page1.total).toBe(3);
    expect(page1.items.map((item) => [item.title, item.unread])).toEqual([
      ['Third', true],
      ['Second', true],
    ]);
    const detail = await dataOf<{ title: string; bodyHtml: string; unread: boolean }>(
      memberCall(`/api/common/news_detail?id=${ids[0]}`, alice),
    );
    expect(detail).toMatchObject({ title: 'First', bodyHtml: '<p>First</p>', unread: false });
    await dataOf(memberCall(`/api/common/news_detail?id=${ids[0]}`, alice));
    expect(await unread(alice)).toBe(2);
    expect(await unread(bob)).toBe(3);
    const page2 = await dataOf<{ items: News[] }>(memberCall('/api/common/news_list?type=announcement&page=2&pageSize=2', alice));
    expect(page2.items.map((item) => [item.title, item.unread])).toEqual([['First', false]]);

    // Unpublishing takes it off the badge too.
    await dataOf(
      operatorCall('PUT', `/api/admin/content/articles/${ids[2]}`, support, {
        type: 'announcement',
        status: 'draft',
        translations: [{ locale: 'en', title: 'Third', bodyHtml: '<p>Third</p>' }],
      }),
    );
    expect(await unread(alice)).toBe(1);
  });
});

describe('community links (setting5)', () => {
  it('are set per language (audited) and read in the member’s language, else the default’s', async () => {
    const refused = await operatorCall('PUT', '/api/admin/content/community_links', support, {
      links: [{ locale: 'en', international: 'javascript:alert(1)', asiaPacific: '' }],
    });
    expect(refused.json()).toEqual({ code: 400, message: 'international group: must be an https:// address', data: null });
    expect((await operatorCall('PUT', '/api/admin/content/community_links', reviewer, { links: [] })).json()).toMatchObject({
      code: 403,
    });

    await dataOf(
      operatorCall('PUT', '/api/admin/content/community_links', support, {
        links: [
          { locale: 'zh-Hans', international: 'https://t.me/custos_cn', asiaPacific: 'https://t.me/custos_cn_apac' },
          { locale: 'en', international: 'https://t.me/custos_en', asiaPacific: '' },
          { locale: 'ko', international: '', asiaPacific: '' },
        ],
      }),
    );
    expect(await dataOf(operatorCall('GET', '/api/admin/content/community_links', support))).toEqual({
      links: [
        { locale: 'zh-Hans', international: 'https://t.me/custos_cn', asiaPacific: 'https://t.me/custos_cn_apac' },
        { locale: 'en', international: 'https://t.me/custos_en', asiaPacific: '' },
      ],
    });
    const linksIn = async (lang: string) =>
      (await dataOf<{ communityLinks: unknown }>(memberCall('/api/common/config', null, lang))).communityLinks;
    expect(await linksIn('EN')).toEqual({ international: 'https://t.me/custos_en', asiaPacific: '' });
    expect(await linksIn('KO')).toEqual({ international: 'https://t.me/custos_cn', asiaPacific: 'https://t.me/custos_cn_apac' });

    const [audit] = await queryRows<{ action: string; username: string }>(
      t.testDatabase.database.db,
      sql`select a.action, o.username from audit_log a join operators o on o.id = a.operator_id
          where a.action = 'content.community_links_updated'`,
    );
    expect(audit).toEqual({ action: 'content.community_links_updated', username: 'support-content' });
  });
});
