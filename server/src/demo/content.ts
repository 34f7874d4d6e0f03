import { deflateSync } from 'node:zlib';
import { articleRequest, bannerRequest, contentImageUrl, noticeRequest } from '@custos/contract';
import type { DemoContext } from './context.js';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG (a diagonal two-colour gradient), so the demo's banners pass the same byte check as any upload. */
export function gradientPng(width: number, height: number, from: [number, number, number], to: [number, number, number]): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      const t = (x / width + y / height) / 2;
      for (let channel = 0; channel < 3; channel += 1) {
        row[1 + x * 3 + channel] = Math.round(from[channel]! + (to[channel]! - from[channel]!) * t);
      }
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const HOUR = 3600_000;

/**
 * Demo content (decision 026): two banners, a notice and news of every type, in English and
 * Simplified Chinese (one market article in Chinese only, to show the fallback to the platform
 * default) and the community links in both, written through the console's own service calls (audited). Nothing is added when a
 * banner exists already, so repeated starts change nothing.
 */
export async function seedContent(demo: DemoContext): Promise<void> {
  const { services, operatorId, origin } = demo;
  if ((await services.content.listBanners()).length > 0) return;
  const image = async (from: [number, number, number], to: [number, number, number]) =>
    (await services.content.uploadImage(operatorId, gradientPng(640, 280, from, to).toString('base64'), origin)).id;
  const blue = await image([22, 119, 255], [114, 46, 209]);
  const teal = await image([19, 194, 194], [82, 196, 26]);
  const gold = await image([250, 173, 20], [245, 34, 45]);

  await services.content.saveBanner(
    operatorId,
    null,
    bannerRequest.parse({
      link: '/pages/index/index5',
      sortOrder: 1,
      translations: [
        { locale: 'en', title: 'Platform news and announcements', imageId: blue },
        { locale: 'zh-Hans', title: '平台资讯与公告', imageId: blue },
      ],
    }),
    origin,
  );
  await services.content.saveBanner(
    operatorId,
    null,
    bannerRequest.parse({
      link: '/pages/index/index3',
      sortOrder: 2,
      translations: [
        { locale: 'en', title: 'Mining machines: daily output', imageId: teal },
        { locale: 'zh-Hans', title: '矿机：每日产出', imageId: teal },
      ],
    }),
    origin,
  );
  await services.content.saveNotice(
    operatorId,
    null,
    noticeRequest.parse({
      translations: [
        { locale: 'en', text: 'Welcome to Custos: withdrawals are reviewed within one business day.' },
        { locale: 'zh-Hans', text: '欢迎使用 Custos：提现将在一个工作日内审核。' },
        { locale: 'ja', text: 'Custos へようこそ：出金は1営業日以内に審査されます。' },
      ],
    }),
    origin,
  );

  await services.content.saveCommunityLinks(
    operatorId,
    {
      links: [
        { locale: 'zh-Hans', international: 'https://t.me/custos_global_cn', asiaPacific: 'https://t.me/custos_apac_cn' },
        { locale: 'en', international: 'https://t.me/custos_global', asiaPacific: 'https://t.me/custos_apac' },
      ],
    },
    origin,
  );

  const now = demo.services.content.now().getTime();
  const articles: {
    type: 'announcement' | 'market' | 'financial';
    hoursAgo: number;
    cover?: string;
    versions: { locale: string; title: string; summary: string; bodyHtml: string }[];
  }[] = [
    {
      type: 'announcement',
      hoursAgo: 48,
      versions: [
        {
          locale: 'en',
          title: 'Scheduled maintenance on Sunday',
          summary: 'The platform pauses for 30 minutes.',
          bodyHtml:
            '<p>On <strong>Sunday 02:00–02:30</strong> (platform time) deposits and withdrawals pause for maintenance.</p><p>Balances and custody interest are not affected.</p>',
        },
        {
          locale: 'zh-Hans',
          title: '周日例行维护',
          summary: '平台暂停服务 30 分钟。',
          bodyHtml: '<p><strong>周日 02:00–02:30</strong>（平台时间）充值和提现暂停维护。</p><p>余额与托管收益不受影响。</p>',
        },
      ],
    },
    {
      type: 'announcement',
      hoursAgo: 2,
      cover: gold,
      versions: [
        {
          locale: 'en',
          title: 'New: team levels up to V6',
          summary: 'See your level and the way to the next on the Team tab.',
          bodyHtml: `<p>The Team tab now shows your level and what the next one needs.</p><p><img src="${contentImageUrl(gold)}" alt="Team levels"></p>`,
        },
        {
          locale: 'zh-Hans',
          title: '新功能：团队等级最高 V6',
          summary: '在团队页查看您的等级和升级条件。',
          bodyHtml: `<p>团队页现在显示您的等级以及升级所需条件。</p><p><img src="${contentImageUrl(gold)}" alt="团队等级"></p>`,
        },
      ],
    },
    {
      type: 'market',
      hoursAgo: 5,
      cover: teal,
      versions: [
        {
          locale: 'en',
          title: 'USDT supply passes a new high',
          summary: 'Stablecoin demand keeps growing.',
          bodyHtml: '<p>The circulating supply of USDT reached a new high this week, led by TRC20 and BEP20 transfers.</p>',
        },
        {
          locale: 'zh-Hans',
          title: 'USDT 供应量创新高',
          summary: '稳定币需求持续增长。',
          bodyHtml: '<p>本周 USDT 流通量创下新高，TRC20 与 BEP20 转账领涨。</p>',
        },
      ],
    },
    {
      type: 'market',
      hoursAgo: 30,
      versions: [
        {
          locale: 'zh-Hans',
          title: '比特币算力稳步上升',
          summary: '全网算力连续三周上升。',
          bodyHtml: '<p>全网算力连续三周上升，矿机收益保持稳定。</p>',
        },
      ],
    },
    {
      type: 'financial',
      hoursAgo: 8,
      versions: [
        {
          locale: 'en',
          title: 'Central banks hold rates',
          summary: 'What it means for stablecoin yields.',
          bodyHtml:
            '<p>Major central banks kept rates unchanged. Custody interest on the platform follows its plans, not market rates.</p>',
        },
        {
          locale: 'zh-Hans',
          title: '各国央行维持利率不变',
          summary: '对稳定币收益意味着什么。',
          bodyHtml: '<p>主要央行维持利率不变。平台托管收益按方案计算，不随市场利率变化。</p>',
        },
      ],
    },
  ];
  for (const article of articles) {
    await services.content.saveArticle(
      operatorId,
      null,
      articleRequest.parse({
        type: article.type,
        status: 'published',
        publishAt: new Date(now - article.hoursAgo * HOUR).toISOString(),
        coverImageId: article.cover ?? null,
        translations: article.versions,
      }),
      origin,
    );
  }
}
