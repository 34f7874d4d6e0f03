import { documentVersionRequest, helpArticleRequest, helpCategoryRequest } from '@custos/contract';
import { simplePdf } from '../lib/simple-pdf.js';
import type { DemoContext } from './context.js';

/**
 * Demo help centre and documents (decision 028): two help categories with four articles in English
 * and Simplified Chinese (one in Chinese only, to show the fallback), and a white paper, terms of
 * service and privacy policy as real PDFs made in code (the white paper has three pages, in both
 * languages). Written through the console's own service calls (audited); nothing is added when a
 * help category exists already, so repeated starts change nothing.
 */
export async function seedHelpAndDocuments(demo: DemoContext): Promise<void> {
  const { services, operatorId, origin } = demo;
  if ((await services.help.listCategories()).length > 0) return;

  const category = (sortOrder: number, en: string, zh: string) =>
    services.help.saveCategory(
      operatorId,
      null,
      helpCategoryRequest.parse({
        sortOrder,
        translations: [
          { locale: 'en', name: en },
          { locale: 'zh-Hans', name: zh },
        ],
      }),
      origin,
    );
  const article = (categoryId: string, sortOrder: number, translations: { locale: string; title: string; bodyHtml: string }[]) =>
    services.help.saveArticle(
      operatorId,
      null,
      helpArticleRequest.parse({ categoryId, status: 'published', sortOrder, translations }),
      origin,
    );

  const account = await category(1, 'Account and security', '账户与安全');
  const funds = await category(2, 'Deposits and withdrawals', '充值与提现');
  await article(account, 1, [
    {
      locale: 'en',
      title: 'How do I change my login password?',
      bodyHtml:
        '<p>Open <strong>Settings → Security centre → Login password</strong>, enter the code sent to your e-mail and choose a new password of at least 8 characters.</p>',
    },
    {
      locale: 'zh-Hans',
      title: '如何修改登录密码？',
      bodyHtml: '<p>打开<strong>设置 → 安全中心 → 登录密码</strong>，输入邮箱收到的验证码并设置至少 8 位的新密码。</p>',
    },
  ]);
  await article(account, 2, [
    {
      locale: 'en',
      title: 'Binding Google Authenticator',
      bodyHtml:
        '<p>Under <strong>Settings → Google authenticator</strong>, scan the QR code with the app and type the six-digit code to confirm.</p><ul><li>Keep the key somewhere safe.</li><li>Withdrawals ask for the code once it is bound.</li></ul>',
    },
    {
      locale: 'zh-Hans',
      title: '绑定谷歌验证器',
      bodyHtml:
        '<p>在<strong>设置 → 谷歌验证器</strong>中用应用扫描二维码，并输入六位验证码确认。</p><ul><li>请妥善保管密钥。</li><li>绑定后提现需要输入验证码。</li></ul>',
    },
  ]);
  await article(funds, 1, [
    {
      locale: 'en',
      title: 'How long does a USDT deposit take?',
      bodyHtml:
        '<p>A deposit is credited once the network has confirmed it: usually a few minutes on BEP20 and TRC20. The deposit record shows each step.</p>',
    },
    {
      locale: 'zh-Hans',
      title: 'USDT 充值需要多久到账？',
      bodyHtml: '<p>网络确认后即到账：BEP20 和 TRC20 通常只需几分钟。充值记录会显示每一步。</p>',
    },
  ]);
  await article(funds, 2, [
    {
      locale: 'zh-Hans',
      title: '提现手续费说明',
      bodyHtml: '<p>每笔提现收取固定手续费 1 USDT，提现开放时间为工作日 09:00–21:00。</p>',
    },
  ]);

  const documents: {
    kind: 'white_paper' | 'terms' | 'privacy';
    versions: { locale: string; title: string; pages: string[][] }[];
  }[] = [
    {
      kind: 'white_paper',
      versions: [
        {
          locale: 'en',
          title: 'Custos white paper',
          pages: [
            ['1. Custody of mining machines', 'Members host machines and receive their daily output.'],
            ['2. The RAB token', 'RAB is exchanged for USDT at the platform price.'],
            ['3. Teams and levels', 'Team earnings follow the level table of each day.'],
          ],
        },
        {
          locale: 'zh-Hans',
          title: 'Custos 白皮书',
          pages: [['Chinese edition', '1. Custody'], ['2. RAB token'], ['3. Teams and levels']],
        },
      ],
    },
    {
      kind: 'terms',
      versions: [
        { locale: 'en', title: 'Terms of service', pages: [['Use of the platform', 'Members keep their credentials safe.']] },
      ],
    },
    {
      kind: 'privacy',
      versions: [
        {
          locale: 'en',
          title: 'Privacy policy',
          pages: [['What we keep', 'Your e-mail, your identity documents and your records.']],
        },
      ],
    },
  ];
  for (const document of documents) {
    const id = await services.documents.create(operatorId, document.kind, origin);
    for (const version of document.versions) {
      await services.documents.upload(
        operatorId,
        id,
        documentVersionRequest.parse({
          locale: version.locale,
          title: version.title,
          // The PDF's own heading is the English title (its font is Latin only).
          contentBase64: simplePdf(version.pages, document.versions[0]!.title).toString('base64'),
        }),
        origin,
      );
    }
  }
}
