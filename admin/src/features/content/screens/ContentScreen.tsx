import { useCallback, useEffect, useState } from 'react';
import { App, Button, Form, Input, InputNumber, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
import {
  ARTICLE_TYPES,
  LOCALES,
  LOCALE_NATIVE_NAMES,
  contentImageUrl,
  type AdminArticle,
  type AdminBanner,
  type AdminNotice,
  type ArticleStatus,
  type ArticleType,
  type Locale,
} from '@custos/contract';
import {
  deleteArticle,
  deleteBanner,
  deleteNotice,
  getCommunityLinks,
  listArticles,
  listBanners,
  listNotices,
  saveArticle,
  saveBanner,
  saveCommunityLinks,
  saveNotice,
  uploadContentImage,
} from '../api/content';
import { BodyEditor } from './BodyEditor';
import {
  EditorDrawer,
  STATUS_OPTIONS,
  TranslationsList,
  errorText,
  perLanguage,
  readBase64,
  useDrawerEditor,
  useList,
} from './editor-parts';
import { DocumentsTab, HelpArticlesTab, HelpCategoriesTab } from './HelpDocsTabs';

const TYPE_LABELS: Record<ArticleType, string> = {
  announcement: 'Announcement',
  market: 'Market news',
  financial: 'Financial news',
};
const PAGE_SIZE = 20;

/** `datetime-local` value (the operator's own time zone) ⇄ an instant. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
function fromLocalInput(value: string | undefined): string | null {
  return value ? new Date(value).toISOString() : null;
}

function schedule(startsAt: string | null, endsAt: string | null): string {
  const format = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '…');
  return startsAt || endsAt ? `${format(startsAt)} → ${format(endsAt)}` : 'Always';
}

/** Order and the showing window: banners' and notices' shared fields. */
function ScheduleFields({ testId }: { testId: string }) {
  return (
    <Space>
      <Form.Item name="sortOrder" label="Order">
        <InputNumber min={0} max={9999} />
      </Form.Item>
      <Form.Item name="startsAt" label="Show from">
        <Input type="datetime-local" data-testid={`${testId}-starts`} />
      </Form.Item>
      <Form.Item name="endsAt" label="Show until">
        <Input type="datetime-local" data-testid={`${testId}-ends`} />
      </Form.Item>
    </Space>
  );
}

/** An image field: uploads the chosen file (the server checks its bytes) and keeps the image id. */
function ImageField({
  value,
  onChange,
  testId,
}: {
  value?: string | null;
  onChange?: (id: string | null) => void;
  testId: string;
}) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Space>
      {value && <img src={`..${contentImageUrl(value)}`} alt="" className="content-thumb" data-testid={`${testId}-preview`} />}
      <input
        type="file"
        accept="image/jpeg,image/png,image/webp"
        data-testid={testId}
        disabled={busy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          setBusy(true);
          readBase64(file)
            .then(uploadContentImage)
            .then(
              (image) => onChange?.(image.id),
              (error: unknown) => void message.error(errorText(error)),
            )
            .finally(() => setBusy(false));
        }}
      />
      {value && onChange && (
        <Button size="small" onClick={() => onChange(null)}>
          Remove
        </Button>
      )}
    </Space>
  );
}

// ── Banners ───────────────────────────────────────────────────────────────────────────────────

interface BannerForm {
  link?: string;
  sortOrder: number;
  startsAt?: string;
  endsAt?: string;
  translations: { locale: Locale; title: string; imageId: string | null }[];
}

function BannersTab() {
  const { data, loading, reload } = useList(listBanners, [] as AdminBanner[]);
  const editor = useDrawerEditor<AdminBanner, BannerForm>({
    label: 'Banner',
    blank: { link: '', sortOrder: 0, startsAt: '', endsAt: '', translations: [{ locale: 'en', title: '', imageId: null }] },
    toForm: (banner) => ({
      link: banner.link ?? '',
      sortOrder: banner.sortOrder,
      startsAt: toLocalInput(banner.startsAt),
      endsAt: toLocalInput(banner.endsAt),
      translations: banner.translations,
    }),
    save: (id, values) => {
      if (values.translations.some((entry) => !entry.imageId)) return Promise.reject(new Error('Every language needs an image'));
      return saveBanner(id, {
        link: values.link?.trim() ? values.link.trim() : null,
        sortOrder: values.sortOrder,
        startsAt: fromLocalInput(values.startsAt),
        endsAt: fromLocalInput(values.endsAt),
        translations: values.translations.map((entry) => ({ locale: entry.locale, title: entry.title, imageId: entry.imageId! })),
      });
    },
    remove: deleteBanner,
    reload,
  });

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Button type="primary" onClick={() => editor.open('new')} data-testid="content-new-banner">
        New banner
      </Button>
      <Table
        rowKey="id"
        loading={loading}
        dataSource={data}
        pagination={false}
        onRow={(record) => ({ onClick: () => editor.open(record), style: { cursor: 'pointer' }, 'data-testid': 'banner-row' })}
        columns={[
          { title: 'Order', dataIndex: 'sortOrder' },
          {
            title: 'Image',
            render: (_: unknown, row: AdminBanner) =>
              row.translations[0] && (
                <img src={`..${contentImageUrl(row.translations[0].imageId)}`} alt="" className="content-thumb" />
              ),
          },
          { title: 'Titles', render: (_: unknown, row: AdminBanner) => perLanguage(row.translations, (entry) => entry.title) },
          { title: 'Link', dataIndex: 'link' },
          { title: 'Shown', render: (_: unknown, row: AdminBanner) => schedule(row.startsAt, row.endsAt) },
        ]}
      />
      <EditorDrawer editor={editor} testId="banner">
        <Form.Item name="link" label="Link (an app page such as /pages/index/index5, or an https:// address)">
          <Input data-testid="banner-link" />
        </Form.Item>
        <ScheduleFields testId="banner" />
        <TranslationsList
          testId="banner"
          blank={{ title: '', imageId: null }}
          fields={(field, index) => (
            <>
              <Form.Item name={[field.name, 'title']} label="Title" rules={[{ required: true, whitespace: true }]}>
                <Input data-testid={`banner-title-${index}`} />
              </Form.Item>
              <Form.Item name={[field.name, 'imageId']} label="Image">
                <ImageField testId={`banner-image-${index}`} />
              </Form.Item>
            </>
          )}
        />
      </EditorDrawer>
    </Space>
  );
}

// ── Notices ───────────────────────────────────────────────────────────────────────────────────

interface NoticeForm {
  sortOrder: number;
  startsAt?: string;
  endsAt?: string;
  translations: { locale: Locale; text: string }[];
}

function NoticesTab() {
  const { data, loading, reload } = useList(listNotices, [] as AdminNotice[]);
  const editor = useDrawerEditor<AdminNotice, NoticeForm>({
    label: 'Notice',
    blank: { sortOrder: 0, startsAt: '', endsAt: '', translations: [{ locale: 'en', text: '' }] },
    toForm: (notice) => ({
      sortOrder: notice.sortOrder,
      startsAt: toLocalInput(notice.startsAt),
      endsAt: toLocalInput(notice.endsAt),
      translations: notice.translations,
    }),
    save: (id, values) =>
      saveNotice(id, {
        sortOrder: values.sortOrder,
        startsAt: fromLocalInput(values.startsAt),
        endsAt: fromLocalInput(values.endsAt),
        translations: values.translations,
      }),
    remove: deleteNotice,
    reload,
  });

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Button type="primary" onClick={() => editor.open('new')} data-testid="content-new-notice">
        New notice
      </Button>
      <Table
        rowKey="id"
        loading={loading}
        dataSource={data}
        pagination={false}
        onRow={(record) => ({ onClick: () => editor.open(record), style: { cursor: 'pointer' }, 'data-testid': 'notice-row' })}
        columns={[
          { title: 'Order', dataIndex: 'sortOrder' },
          { title: 'Text', render: (_: unknown, row: AdminNotice) => perLanguage(row.translations, (entry) => entry.text) },
          { title: 'Shown', render: (_: unknown, row: AdminNotice) => schedule(row.startsAt, row.endsAt) },
        ]}
      />
      <EditorDrawer editor={editor} testId="notice">
        <ScheduleFields testId="notice" />
        <TranslationsList
          testId="notice"
          blank={{ text: '' }}
          fields={(field, index) => (
            <Form.Item name={[field.name, 'text']} label="Text" rules={[{ required: true, whitespace: true }]}>
              <Input style={{ width: 380 }} maxLength={300} data-testid={`notice-text-${index}`} />
            </Form.Item>
          )}
        />
      </EditorDrawer>
    </Space>
  );
}

// ── Articles ──────────────────────────────────────────────────────────────────────────────────

interface ArticleForm {
  type: ArticleType;
  status: ArticleStatus;
  publishAt?: string;
  coverImageId: string | null;
  translations: { locale: Locale; title: string; summary: string; bodyHtml: string }[];
}

function ArticlesTab() {
  const [type, setType] = useState<ArticleType | undefined>(undefined);
  const [page, setPage] = useState(1);
  const load = useCallback(() => listArticles(type, page, PAGE_SIZE), [type, page]);
  const { data, loading, reload } = useList(load, { items: [] as AdminArticle[], total: 0, page: 1, pageSize: PAGE_SIZE });
  const editor = useDrawerEditor<AdminArticle, ArticleForm>({
    label: 'Article',
    blank: {
      type: 'announcement',
      status: 'draft',
      publishAt: '',
      coverImageId: null,
      translations: [{ locale: 'en', title: '', summary: '', bodyHtml: '' }],
    },
    toForm: (article) => ({
      type: article.type,
      status: article.status,
      publishAt: toLocalInput(article.publishAt),
      coverImageId: article.coverImageId,
      translations: article.translations,
    }),
    save: (id, values) =>
      saveArticle(id, {
        type: values.type,
        status: values.status,
        publishAt: fromLocalInput(values.publishAt),
        coverImageId: values.coverImageId ?? null,
        translations: values.translations,
      }),
    remove: deleteArticle,
    reload,
  });

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <Button type="primary" onClick={() => editor.open('new')} data-testid="content-new-article">
          New article
        </Button>
        <Select<ArticleType | 'all'>
          value={type ?? 'all'}
          style={{ width: 200 }}
          options={[
            { value: 'all', label: 'All types' },
            ...ARTICLE_TYPES.map((value) => ({ value, label: TYPE_LABELS[value] })),
          ]}
          onChange={(value) => {
            setPage(1);
            setType(value === 'all' ? undefined : value);
          }}
        />
      </Space>
      <Table
        rowKey="id"
        loading={loading}
        dataSource={data.items}
        onRow={(record) => ({ onClick: () => editor.open(record), style: { cursor: 'pointer' }, 'data-testid': 'article-row' })}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: 'Type', dataIndex: 'type', render: (value: ArticleType) => TYPE_LABELS[value] },
          { title: 'Titles', render: (_: unknown, row: AdminArticle) => perLanguage(row.translations, (entry) => entry.title) },
          {
            title: 'Status',
            render: (_: unknown, row: AdminArticle) =>
              row.status === 'draft' ? (
                <Tag>Draft</Tag>
              ) : row.publishAt && new Date(row.publishAt).getTime() > Date.now() ? (
                <Tag color="blue">Scheduled {new Date(row.publishAt).toLocaleString()}</Tag>
              ) : (
                <Tag color="green">Published</Tag>
              ),
          },
          { title: 'Changed', dataIndex: 'updatedAt', render: (value: string) => new Date(value).toLocaleString() },
        ]}
      />
      <EditorDrawer editor={editor} testId="article" width={960}>
        <Space wrap>
          <Form.Item name="type" label="Type">
            <Select
              style={{ width: 180 }}
              options={ARTICLE_TYPES.map((value) => ({ value, label: TYPE_LABELS[value] }))}
              data-testid="article-type"
            />
          </Form.Item>
          <Form.Item name="status" label="Status">
            <Select style={{ width: 140 }} options={STATUS_OPTIONS} data-testid="article-status" />
          </Form.Item>
          <Form.Item name="publishAt" label="Publish at (empty: when published)">
            <Input type="datetime-local" data-testid="article-publish-at" />
          </Form.Item>
          <Form.Item name="coverImageId" label="Cover image">
            <ImageField testId="article-cover" />
          </Form.Item>
        </Space>
        <TranslationsList
          testId="article"
          blank={{ title: '', summary: '', bodyHtml: '' }}
          fields={(field, index) => (
            <>
              <Form.Item name={[field.name, 'title']} label="Title" rules={[{ required: true, whitespace: true }]}>
                <Input style={{ width: 320 }} maxLength={120} data-testid={`article-title-${index}`} />
              </Form.Item>
              <Form.Item name={[field.name, 'summary']} label="Summary">
                <Input style={{ width: 320 }} maxLength={300} data-testid={`article-summary-${index}`} />
              </Form.Item>
            </>
          )}
          below={(field, index) => (
            <Form.Item name={[field.name, 'bodyHtml']} label="Text (sanitised when saved)" rules={[{ required: true }]}>
              <BodyEditor testId={`article-body-${index}`} />
            </Form.Item>
          )}
        />
      </EditorDrawer>
    </Space>
  );
}

// ── Community links ───────────────────────────────────────────────────────────────────────────

interface LinksForm {
  links: { locale: Locale; international: string; asiaPacific: string }[];
}

/** setting5's two groups per language; a language left empty shows the platform default language's. */
function CommunityLinksTab() {
  const { message } = App.useApp();
  const [form] = Form.useForm<LinksForm>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    getCommunityLinks().then(
      ({ links }) =>
        form.setFieldsValue({
          links: LOCALES.map(
            (locale) => links.find((entry) => entry.locale === locale) ?? { locale, international: '', asiaPacific: '' },
          ),
        }),
      (error: unknown) => void message.error(errorText(error)),
    );
  }, [form, message]);
  return (
    <Form<LinksForm>
      form={form}
      layout="vertical"
      onFinish={(values) => {
        setSaving(true);
        saveCommunityLinks({ links: values.links })
          .then(
            () => void message.success('Community links saved'),
            (error: unknown) => void message.error(errorText(error)),
          )
          .finally(() => setSaving(false));
      }}
    >
      <Typography.Paragraph type="secondary">
        https:// addresses of the international and Asia-Pacific groups. A language left empty shows the platform default
        language&apos;s links.
      </Typography.Paragraph>
      <Form.List name="links">
        {(fields) =>
          fields.map((field) => (
            <Space key={field.key} align="start" wrap>
              <Form.Item name={[field.name, 'locale']} hidden>
                <Input />
              </Form.Item>
              <Form.Item label="Language">
                <Typography.Text>
                  {LOCALE_NATIVE_NAMES[form.getFieldValue(['links', field.name, 'locale']) as Locale]}
                </Typography.Text>
              </Form.Item>
              <Form.Item name={[field.name, 'international']} label="International group">
                <Input style={{ width: 320 }} placeholder="https://" />
              </Form.Item>
              <Form.Item name={[field.name, 'asiaPacific']} label="Asia-Pacific group">
                <Input style={{ width: 320 }} placeholder="https://" />
              </Form.Item>
            </Space>
          ))
        }
      </Form.List>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="community-save">
        Save
      </Button>
    </Form>
  );
}

/** Content: banners, the notice marquee, news and help articles, each per language, and documents (decisions 026, 028). */
export function ContentScreen() {
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Content</Typography.Title>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'banners', label: 'Banners', children: <BannersTab /> },
          { key: 'notices', label: 'Notices', children: <NoticesTab /> },
          { key: 'articles', label: 'News articles', children: <ArticlesTab /> },
          { key: 'community', label: 'Community links', children: <CommunityLinksTab /> },
          { key: 'help-categories', label: 'Help categories', children: <HelpCategoriesTab /> },
          { key: 'help-articles', label: 'Help articles', children: <HelpArticlesTab /> },
          { key: 'documents', label: 'Documents', children: <DocumentsTab /> },
        ]}
      />
    </Space>
  );
}
