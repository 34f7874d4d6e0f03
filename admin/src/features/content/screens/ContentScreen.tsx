import { useCallback, useEffect, useRef, useState } from 'react';
import { App, Button, Drawer, Form, Input, InputNumber, Popconfirm, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
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
  previewHtml,
  saveArticle,
  saveBanner,
  saveCommunityLinks,
  saveNotice,
  uploadContentImage,
} from '../api/content';

const TYPE_LABELS: Record<ArticleType, string> = {
  announcement: 'Announcement',
  market: 'Market news',
  financial: 'Financial news',
};
const LOCALE_OPTIONS = LOCALES.map((locale) => ({ value: locale, label: `${LOCALE_NATIVE_NAMES[locale]} (${locale})` }));
const PAGE_SIZE = 20;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

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

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result.replace(/^data:[^,]*,/, '') : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

function schedule(startsAt: string | null, endsAt: string | null): string {
  const format = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '…');
  return startsAt || endsAt ? `${format(startsAt)} → ${format(endsAt)}` : 'Always';
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

function useList<T>(load: () => Promise<T>, initial: T) {
  const { message } = App.useApp();
  const [data, setData] = useState<T>(initial);
  const [loading, setLoading] = useState(true);
  const reload = useCallback(() => {
    setLoading(true);
    load()
      .then(setData, (error: unknown) => void message.error(errorText(error)))
      .finally(() => setLoading(false));
  }, [load, message]);
  useEffect(reload, [reload]);
  return { data, loading, reload };
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
  const { message } = App.useApp();
  const { data, loading, reload } = useList(listBanners, [] as AdminBanner[]);
  const [editing, setEditing] = useState<AdminBanner | 'new' | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<BannerForm>();

  const open = (banner: AdminBanner | 'new') => {
    setEditing(banner);
    form.setFieldsValue(
      banner === 'new'
        ? { link: '', sortOrder: 0, startsAt: '', endsAt: '', translations: [{ locale: 'en', title: '', imageId: null }] }
        : {
            link: banner.link ?? '',
            sortOrder: banner.sortOrder,
            startsAt: toLocalInput(banner.startsAt),
            endsAt: toLocalInput(banner.endsAt),
            translations: banner.translations,
          },
    );
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Button type="primary" onClick={() => open('new')} data-testid="content-new-banner">
        New banner
      </Button>
      <Table
        rowKey="id"
        loading={loading}
        dataSource={data}
        pagination={false}
        onRow={(record) => ({ onClick: () => open(record), style: { cursor: 'pointer' }, 'data-testid': 'banner-row' })}
        columns={[
          { title: 'Order', dataIndex: 'sortOrder' },
          {
            title: 'Image',
            render: (_: unknown, row: AdminBanner) =>
              row.translations[0] && (
                <img src={`..${contentImageUrl(row.translations[0].imageId)}`} alt="" className="content-thumb" />
              ),
          },
          {
            title: 'Titles',
            render: (_: unknown, row: AdminBanner) =>
              row.translations.map((entry) => `${entry.locale}: ${entry.title}`).join(' · '),
          },
          { title: 'Link', dataIndex: 'link' },
          { title: 'Shown', render: (_: unknown, row: AdminBanner) => schedule(row.startsAt, row.endsAt) },
        ]}
      />
      <Drawer width={720} open={editing !== null} onClose={() => setEditing(null)} title="Banner" forceRender>
        <Form<BannerForm>
          form={form}
          layout="vertical"
          onFinish={(values) => {
            if (values.translations.some((entry) => !entry.imageId)) {
              void message.error('Every language needs an image');
              return;
            }
            setSaving(true);
            saveBanner(editing === 'new' || editing === null ? null : editing.id, {
              link: values.link?.trim() ? values.link.trim() : null,
              sortOrder: values.sortOrder,
              startsAt: fromLocalInput(values.startsAt),
              endsAt: fromLocalInput(values.endsAt),
              translations: values.translations.map((entry) => ({
                locale: entry.locale,
                title: entry.title,
                imageId: entry.imageId!,
              })),
            })
              .then(
                () => {
                  void message.success('Banner saved');
                  setEditing(null);
                  reload();
                },
                (error: unknown) => void message.error(errorText(error)),
              )
              .finally(() => setSaving(false));
          }}
        >
          <Form.Item name="link" label="Link (an app page such as /pages/index/index5, or an https:// address)">
            <Input data-testid="banner-link" />
          </Form.Item>
          <Space>
            <Form.Item name="sortOrder" label="Order">
              <InputNumber min={0} max={9999} />
            </Form.Item>
            <Form.Item name="startsAt" label="Show from">
              <Input type="datetime-local" data-testid="banner-starts" />
            </Form.Item>
            <Form.Item name="endsAt" label="Show until">
              <Input type="datetime-local" data-testid="banner-ends" />
            </Form.Item>
          </Space>
          <Form.List name="translations">
            {(fields, { add, remove }) => (
              <Space direction="vertical" style={{ width: '100%' }}>
                {fields.map((field, index) => (
                  <Space key={field.key} align="start" wrap>
                    <Form.Item name={[field.name, 'locale']} label="Language" rules={[{ required: true }]}>
                      <Select options={LOCALE_OPTIONS} style={{ width: 180 }} data-testid={`banner-locale-${index}`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'title']} label="Title" rules={[{ required: true, whitespace: true }]}>
                      <Input data-testid={`banner-title-${index}`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'imageId']} label="Image">
                      <ImageField testId={`banner-image-${index}`} />
                    </Form.Item>
                    {fields.length > 1 && <Button onClick={() => remove(field.name)}>Remove language</Button>}
                  </Space>
                ))}
                <Button onClick={() => add({ locale: undefined, title: '', imageId: null })} data-testid="banner-add-language">
                  Add language
                </Button>
              </Space>
            )}
          </Form.List>
          <Space style={{ marginTop: 16 }}>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="banner-save">
              Save
            </Button>
            {editing !== null && editing !== 'new' && (
              <Popconfirm
                title="Delete this banner?"
                onConfirm={() =>
                  void deleteBanner(editing.id).then(
                    () => {
                      setEditing(null);
                      reload();
                    },
                    (error: unknown) => void message.error(errorText(error)),
                  )
                }
              >
                <Button danger>Delete</Button>
              </Popconfirm>
            )}
          </Space>
        </Form>
      </Drawer>
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
  const { message } = App.useApp();
  const { data, loading, reload } = useList(listNotices, [] as AdminNotice[]);
  const [editing, setEditing] = useState<AdminNotice | 'new' | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<NoticeForm>();

  const open = (notice: AdminNotice | 'new') => {
    setEditing(notice);
    form.setFieldsValue(
      notice === 'new'
        ? { sortOrder: 0, startsAt: '', endsAt: '', translations: [{ locale: 'en', text: '' }] }
        : {
            sortOrder: notice.sortOrder,
            startsAt: toLocalInput(notice.startsAt),
            endsAt: toLocalInput(notice.endsAt),
            translations: notice.translations,
          },
    );
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Button type="primary" onClick={() => open('new')} data-testid="content-new-notice">
        New notice
      </Button>
      <Table
        rowKey="id"
        loading={loading}
        dataSource={data}
        pagination={false}
        onRow={(record) => ({ onClick: () => open(record), style: { cursor: 'pointer' }, 'data-testid': 'notice-row' })}
        columns={[
          { title: 'Order', dataIndex: 'sortOrder' },
          {
            title: 'Text',
            render: (_: unknown, row: AdminNotice) =>
              row.translations.map((entry) => `${entry.locale}: ${entry.text}`).join(' · '),
          },
          { title: 'Shown', render: (_: unknown, row: AdminNotice) => schedule(row.startsAt, row.endsAt) },
        ]}
      />
      <Drawer width={720} open={editing !== null} onClose={() => setEditing(null)} title="Notice" forceRender>
        <Form<NoticeForm>
          form={form}
          layout="vertical"
          onFinish={(values) => {
            setSaving(true);
            saveNotice(editing === 'new' || editing === null ? null : editing.id, {
              sortOrder: values.sortOrder,
              startsAt: fromLocalInput(values.startsAt),
              endsAt: fromLocalInput(values.endsAt),
              translations: values.translations,
            })
              .then(
                () => {
                  void message.success('Notice saved');
                  setEditing(null);
                  reload();
                },
                (error: unknown) => void message.error(errorText(error)),
              )
              .finally(() => setSaving(false));
          }}
        >
          <Space>
            <Form.Item name="sortOrder" label="Order">
              <InputNumber min={0} max={9999} />
            </Form.Item>
            <Form.Item name="startsAt" label="Show from">
              <Input type="datetime-local" />
            </Form.Item>
            <Form.Item name="endsAt" label="Show until">
              <Input type="datetime-local" />
            </Form.Item>
          </Space>
          <Form.List name="translations">
            {(fields, { add, remove }) => (
              <Space direction="vertical" style={{ width: '100%' }}>
                {fields.map((field, index) => (
                  <Space key={field.key} align="start" wrap>
                    <Form.Item name={[field.name, 'locale']} label="Language" rules={[{ required: true }]}>
                      <Select options={LOCALE_OPTIONS} style={{ width: 180 }} data-testid={`notice-locale-${index}`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'text']} label="Text" rules={[{ required: true, whitespace: true }]}>
                      <Input style={{ width: 380 }} maxLength={300} data-testid={`notice-text-${index}`} />
                    </Form.Item>
                    {fields.length > 1 && <Button onClick={() => remove(field.name)}>Remove language</Button>}
                  </Space>
                ))}
                <Button onClick={() => add({ locale: undefined, text: '' })} data-testid="notice-add-language">
                  Add language
                </Button>
              </Space>
            )}
          </Form.List>
          <Space style={{ marginTop: 16 }}>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="notice-save">
              Save
            </Button>
            {editing !== null && editing !== 'new' && (
              <Popconfirm
                title="Delete this notice?"
                onConfirm={() =>
                  void deleteNotice(editing.id).then(
                    () => {
                      setEditing(null);
                      reload();
                    },
                    (error: unknown) => void message.error(errorText(error)),
                  )
                }
              >
                <Button danger>Delete</Button>
              </Popconfirm>
            )}
          </Space>
        </Form>
      </Drawer>
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

/**
 * The article editor: HTML typed in a text area, with a live preview of what the server would
 * store (it sanitises on save; the preview asks it, so the console never renders unsanitised HTML).
 */
function BodyEditor({ value = '', onChange, testId }: { value?: string; onChange?: (value: string) => void; testId: string }) {
  const { message } = App.useApp();
  const [preview, setPreview] = useState('');
  const latest = useRef(0);
  useEffect(() => {
    const request = ++latest.current;
    const timer = setTimeout(() => {
      if (!value.trim()) {
        setPreview('');
        return;
      }
      previewHtml(value).then(
        (result) => request === latest.current && setPreview(result.html),
        () => undefined,
      );
    }, 500);
    return () => clearTimeout(timer);
  }, [value]);
  const insert = (html: string) => onChange?.(`${value}${html}`);
  return (
    <div className="content-editor">
      <Space wrap style={{ marginBottom: 8 }}>
        <Button size="small" onClick={() => insert('<p></p>')}>
          Paragraph
        </Button>
        <Button size="small" onClick={() => insert('<h3></h3>')}>
          Heading
        </Button>
        <Button size="small" onClick={() => insert('<ul><li></li></ul>')}>
          List
        </Button>
        <Button size="small" onClick={() => insert('<a href="https://"></a>')}>
          Link
        </Button>
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp"
          data-testid={`${testId}-image`}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (!file) return;
            readBase64(file)
              .then(uploadContentImage)
              .then(
                (image) => insert(`<p><img src="${image.url}" alt=""></p>`),
                (error: unknown) => void message.error(errorText(error)),
              );
          }}
        />
      </Space>
      <div className="content-editor-panes">
        <Input.TextArea rows={12} value={value} onChange={(event) => onChange?.(event.target.value)} data-testid={testId} />
        {/* The server's sanitised answer, never the raw text. */}
        <div className="content-preview" data-testid={`${testId}-preview`} dangerouslySetInnerHTML={{ __html: preview }} />
      </div>
    </div>
  );
}

function ArticlesTab() {
  const { message } = App.useApp();
  const [type, setType] = useState<ArticleType | undefined>(undefined);
  const [page, setPage] = useState(1);
  const load = useCallback(() => listArticles(type, page, PAGE_SIZE), [type, page]);
  const { data, loading, reload } = useList(load, { items: [] as AdminArticle[], total: 0, page: 1, pageSize: PAGE_SIZE });
  const [editing, setEditing] = useState<AdminArticle | 'new' | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<ArticleForm>();

  const open = (article: AdminArticle | 'new') => {
    setEditing(article);
    form.setFieldsValue(
      article === 'new'
        ? {
            type: 'announcement',
            status: 'draft',
            publishAt: '',
            coverImageId: null,
            translations: [{ locale: 'en', title: '', summary: '', bodyHtml: '' }],
          }
        : {
            type: article.type,
            status: article.status,
            publishAt: toLocalInput(article.publishAt),
            coverImageId: article.coverImageId,
            translations: article.translations,
          },
    );
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <Button type="primary" onClick={() => open('new')} data-testid="content-new-article">
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
        onRow={(record) => ({ onClick: () => open(record), style: { cursor: 'pointer' }, 'data-testid': 'article-row' })}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: 'Type', dataIndex: 'type', render: (value: ArticleType) => TYPE_LABELS[value] },
          {
            title: 'Titles',
            render: (_: unknown, row: AdminArticle) =>
              row.translations.map((entry) => `${entry.locale}: ${entry.title}`).join(' · '),
          },
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
      <Drawer width={960} open={editing !== null} onClose={() => setEditing(null)} title="Article" forceRender>
        <Form<ArticleForm>
          form={form}
          layout="vertical"
          onFinish={(values) => {
            setSaving(true);
            saveArticle(editing === 'new' || editing === null ? null : editing.id, {
              type: values.type,
              status: values.status,
              publishAt: fromLocalInput(values.publishAt),
              coverImageId: values.coverImageId ?? null,
              translations: values.translations,
            })
              .then(
                () => {
                  void message.success('Article saved');
                  setEditing(null);
                  reload();
                },
                (error: unknown) => void message.error(errorText(error)),
              )
              .finally(() => setSaving(false));
          }}
        >
          <Space wrap>
            <Form.Item name="type" label="Type">
              <Select
                style={{ width: 180 }}
                options={ARTICLE_TYPES.map((value) => ({ value, label: TYPE_LABELS[value] }))}
                data-testid="article-type"
              />
            </Form.Item>
            <Form.Item name="status" label="Status">
              <Select
                style={{ width: 140 }}
                options={[
                  { value: 'draft', label: 'Draft' },
                  { value: 'published', label: 'Published' },
                ]}
                data-testid="article-status"
              />
            </Form.Item>
            <Form.Item name="publishAt" label="Publish at (empty: when published)">
              <Input type="datetime-local" data-testid="article-publish-at" />
            </Form.Item>
            <Form.Item name="coverImageId" label="Cover image">
              <ImageField testId="article-cover" />
            </Form.Item>
          </Space>
          <Form.List name="translations">
            {(fields, { add, remove }) => (
              <Space direction="vertical" style={{ width: '100%' }}>
                {fields.map((field, index) => (
                  <div key={field.key} className="content-translation">
                    <Space align="start" wrap>
                      <Form.Item name={[field.name, 'locale']} label="Language" rules={[{ required: true }]}>
                        <Select options={LOCALE_OPTIONS} style={{ width: 180 }} data-testid={`article-locale-${index}`} />
                      </Form.Item>
                      <Form.Item name={[field.name, 'title']} label="Title" rules={[{ required: true, whitespace: true }]}>
                        <Input style={{ width: 320 }} maxLength={120} data-testid={`article-title-${index}`} />
                      </Form.Item>
                      <Form.Item name={[field.name, 'summary']} label="Summary">
                        <Input style={{ width: 320 }} maxLength={300} data-testid={`article-summary-${index}`} />
                      </Form.Item>
                      {fields.length > 1 && <Button onClick={() => remove(field.name)}>Remove language</Button>}
                    </Space>
                    <Form.Item
                      name={[field.name, 'bodyHtml']}
                      label="Text (HTML; sanitised when saved)"
                      rules={[{ required: true }]}
                    >
                      <BodyEditor testId={`article-body-${index}`} />
                    </Form.Item>
                  </div>
                ))}
                <Button
                  onClick={() => add({ locale: undefined, title: '', summary: '', bodyHtml: '' })}
                  data-testid="article-add-language"
                >
                  Add language
                </Button>
              </Space>
            )}
          </Form.List>
          <Space style={{ marginTop: 16 }}>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="article-save">
              Save
            </Button>
            {editing !== null && editing !== 'new' && (
              <Popconfirm
                title="Delete this article?"
                onConfirm={() =>
                  void deleteArticle(editing.id).then(
                    () => {
                      setEditing(null);
                      reload();
                    },
                    (error: unknown) => void message.error(errorText(error)),
                  )
                }
              >
                <Button danger>Delete</Button>
              </Popconfirm>
            )}
          </Space>
        </Form>
      </Drawer>
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

/** Content: banners, the notice marquee and news articles, each per language (decision 026). */
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
        ]}
      />
    </Space>
  );
}
