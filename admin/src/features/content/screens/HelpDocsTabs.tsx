import { useCallback, useEffect, useState } from 'react';
import { App, Button, Checkbox, Form, Input, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import {
  DOCUMENT_KINDS,
  documentViewerRoute,
  type AdminDocument,
  type AdminHelpArticle,
  type AdminHelpCategory,
  type ArticleStatus,
  type DocumentKind,
  type Locale,
} from '@custos/contract';
import {
  createDocument,
  deleteHelpArticle,
  deleteHelpCategory,
  getDocumentSettings,
  listDocuments,
  listHelpArticles,
  listHelpCategories,
  saveDocumentSettings,
  saveHelpArticle,
  saveHelpCategory,
  setDocumentVersionPublished,
  uploadDocumentVersion,
} from '../api/content';
import { BodyEditor } from './BodyEditor';
import {
  EditorDrawer,
  LOCALE_OPTIONS,
  STATUS_OPTIONS,
  TranslationsList,
  errorText,
  perLanguage,
  readBase64,
  useDrawerEditor,
  useList,
} from './editor-parts';

const PAGE_SIZE = 20;

// ── Help categories ───────────────────────────────────────────────────────────────────────────

interface CategoryForm {
  sortOrder: number;
  translations: { locale: Locale; name: string }[];
}

export function HelpCategoriesTab() {
  const { data, loading, reload } = useList(listHelpCategories, [] as AdminHelpCategory[]);
  const editor = useDrawerEditor<AdminHelpCategory, CategoryForm>({
    label: 'Help category',
    blank: { sortOrder: 0, translations: [{ locale: 'en', name: '' }] },
    toForm: (category) => ({ sortOrder: category.sortOrder, translations: category.translations }),
    save: (id, values) => saveHelpCategory(id, values),
    remove: deleteHelpCategory,
    reload,
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Button type="primary" onClick={() => editor.open('new')} data-testid="content-new-help-category">
        New help category
      </Button>
      <Table
        rowKey="id"
        loading={loading}
        dataSource={data}
        pagination={false}
        onRow={(record) => ({
          onClick: () => editor.open(record),
          style: { cursor: 'pointer' },
          'data-testid': 'help-category-row',
        })}
        columns={[
          { title: 'Order', dataIndex: 'sortOrder' },
          {
            title: 'Names',
            render: (_: unknown, row: AdminHelpCategory) => perLanguage(row.translations, (entry) => entry.name),
          },
          { title: 'Articles', dataIndex: 'articleCount' },
        ]}
      />
      <EditorDrawer editor={editor} testId="help-category">
        <Form.Item name="sortOrder" label="Order">
          <InputNumber min={0} max={9999} data-testid="help-category-order" />
        </Form.Item>
        <TranslationsList
          testId="help-category"
          blank={{ name: '' }}
          fields={(field, index) => (
            <Form.Item name={[field.name, 'name']} label="Name" rules={[{ required: true, whitespace: true }]}>
              <Input style={{ width: 320 }} maxLength={60} data-testid={`help-category-name-${index}`} />
            </Form.Item>
          )}
        />
      </EditorDrawer>
    </Space>
  );
}

// ── Help articles ─────────────────────────────────────────────────────────────────────────────

interface HelpArticleForm {
  categoryId?: string;
  status: ArticleStatus;
  sortOrder: number;
  translations: { locale: Locale; title: string; bodyHtml: string }[];
}

export function HelpArticlesTab() {
  const [categoryId, setCategoryId] = useState<string | undefined>(undefined);
  const [page, setPage] = useState(1);
  const { data: categories } = useList(listHelpCategories, [] as AdminHelpCategory[]);
  const load = useCallback(() => listHelpArticles(categoryId, page, PAGE_SIZE), [categoryId, page]);
  const { data, loading, reload } = useList(load, { items: [] as AdminHelpArticle[], total: 0, page: 1, pageSize: PAGE_SIZE });
  const categoryOptions = categories.map((category) => ({
    value: category.id,
    label: category.translations.map((entry) => entry.name).join(' / '),
  }));
  const editor = useDrawerEditor<AdminHelpArticle, HelpArticleForm>({
    label: 'Help article',
    blank: { categoryId, status: 'draft', sortOrder: 0, translations: [{ locale: 'en', title: '', bodyHtml: '' }] },
    toForm: (article) => ({
      categoryId: article.categoryId,
      status: article.status,
      sortOrder: article.sortOrder,
      translations: article.translations,
    }),
    save: (id, values) =>
      saveHelpArticle(id, {
        categoryId: values.categoryId ?? '',
        status: values.status,
        sortOrder: values.sortOrder,
        translations: values.translations,
      }),
    remove: deleteHelpArticle,
    reload,
  });
  const categoryName = (id: string) => categoryOptions.find((option) => option.value === id)?.label ?? id;

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <Button type="primary" onClick={() => editor.open('new')} data-testid="content-new-help-article">
          New help article
        </Button>
        <Select<string>
          value={categoryId ?? 'all'}
          style={{ width: 240 }}
          options={[{ value: 'all', label: 'All categories' }, ...categoryOptions]}
          onChange={(value) => {
            setPage(1);
            setCategoryId(value === 'all' ? undefined : value);
          }}
        />
      </Space>
      <Table
        rowKey="id"
        loading={loading}
        dataSource={data.items}
        onRow={(record) => ({
          onClick: () => editor.open(record),
          style: { cursor: 'pointer' },
          'data-testid': 'help-article-row',
        })}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: 'Category', dataIndex: 'categoryId', render: (value: string) => categoryName(value) },
          { title: 'Order', dataIndex: 'sortOrder' },
          {
            title: 'Titles',
            render: (_: unknown, row: AdminHelpArticle) => perLanguage(row.translations, (entry) => entry.title),
          },
          {
            title: 'Status',
            render: (_: unknown, row: AdminHelpArticle) =>
              row.status === 'draft' ? <Tag>Draft</Tag> : <Tag color="green">Published</Tag>,
          },
          { title: 'Changed', dataIndex: 'updatedAt', render: (value: string) => new Date(value).toLocaleString() },
        ]}
      />
      <EditorDrawer editor={editor} testId="help-article" width={960}>
        <Space wrap>
          <Form.Item name="categoryId" label="Category" rules={[{ required: true }]}>
            <Select
              style={{ width: 240 }}
              options={categoryOptions}
              showSearch={{ optionFilterProp: 'label' }}
              data-testid="help-article-category"
            />
          </Form.Item>
          <Form.Item name="status" label="Status">
            <Select style={{ width: 140 }} options={STATUS_OPTIONS} data-testid="help-article-status" />
          </Form.Item>
          <Form.Item name="sortOrder" label="Order">
            <InputNumber min={0} max={9999} />
          </Form.Item>
        </Space>
        <TranslationsList
          testId="help-article"
          blank={{ title: '', bodyHtml: '' }}
          fields={(field, index) => (
            <Form.Item name={[field.name, 'title']} label="Title" rules={[{ required: true, whitespace: true }]}>
              <Input style={{ width: 420 }} maxLength={120} data-testid={`help-article-title-${index}`} />
            </Form.Item>
          )}
          below={(field, index) => (
            <Form.Item name={[field.name, 'bodyHtml']} label="Text (sanitised when saved)" rules={[{ required: true }]}>
              <BodyEditor testId={`help-article-body-${index}`} />
            </Form.Item>
          )}
        />
      </EditorDrawer>
    </Space>
  );
}

// ── Documents ─────────────────────────────────────────────────────────────────────────────────

const KIND_LABELS: Record<DocumentKind, string> = {
  white_paper: 'White paper',
  terms: 'Terms of service',
  privacy: 'Privacy policy',
  other: 'Other',
};

interface UploadForm {
  locale: Locale;
  title: string;
  publish: boolean;
}

/** Uploads a PDF as the next version of a document in one language (the server checks its bytes and size). */
function UploadVersion({ document, onDone }: { document: AdminDocument; onDone: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<UploadForm>();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const testId = 'document-upload';
  return (
    <Form<UploadForm>
      form={form}
      name={`upload-${document.id}`}
      layout="inline"
      initialValues={{ locale: 'en', title: '', publish: true }}
      onFinish={(values) => {
        if (!file) {
          void message.error('Choose a PDF file');
          return;
        }
        setBusy(true);
        readBase64(file)
          .then((contentBase64) => uploadDocumentVersion(document.id, { ...values, contentBase64 }))
          .then(
            (result) => {
              void message.success(`Version ${result.version} uploaded`);
              form.resetFields();
              setFile(null);
              onDone();
            },
            (error: unknown) => void message.error(errorText(error)),
          )
          .finally(() => setBusy(false));
      }}
    >
      <Form.Item name="locale" label="Language" rules={[{ required: true }]}>
        <Select options={LOCALE_OPTIONS} style={{ width: 180 }} data-testid={`${testId}-locale`} />
      </Form.Item>
      <Form.Item name="title" label="Title" rules={[{ required: true, whitespace: true }]}>
        <Input maxLength={120} data-testid={`${testId}-title`} />
      </Form.Item>
      <Form.Item label="PDF">
        <input
          type="file"
          accept="application/pdf"
          data-testid={`${testId}-file`}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
      </Form.Item>
      <Form.Item name="publish" valuePropName="checked">
        <Checkbox>Publish</Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid={`${testId}-save`}>
        Upload
      </Button>
    </Form>
  );
}

function DocumentSettingsForm() {
  const { message } = App.useApp();
  const [megabytes, setMegabytes] = useState<number | null>(null);
  useEffect(() => {
    getDocumentSettings().then(
      (value) => setMegabytes(Math.round((value.maxBytes / (1024 * 1024)) * 10) / 10),
      (error: unknown) => void message.error(errorText(error)),
    );
  }, [message]);
  return (
    <Space>
      <Typography.Text>Largest PDF (MB)</Typography.Text>
      <InputNumber min={0.1} max={20} step={0.5} value={megabytes} onChange={setMegabytes} data-testid="document-max-mb" />
      <Button
        onClick={() =>
          megabytes &&
          void saveDocumentSettings(Math.round(megabytes * 1024 * 1024)).then(
            () => void message.success('Saved'),
            (error: unknown) => void message.error(errorText(error)),
          )
        }
        data-testid="document-max-save"
      >
        Save
      </Button>
    </Space>
  );
}

/** Documents: one per kind (or several "other"), a version per upload and language; members see the newest published. */
export function DocumentsTab() {
  const { message } = App.useApp();
  const { data, loading, reload } = useList(listDocuments, [] as AdminDocument[]);
  const [kind, setKind] = useState<DocumentKind>('white_paper');
  const versionColumns = [
    { title: 'Language', dataIndex: 'locale' },
    { title: 'Version', dataIndex: 'version' },
    { title: 'Title', dataIndex: 'title' },
    { title: 'Size', dataIndex: 'sizeBytes', render: (value: number) => `${(value / 1024).toFixed(1)} KB` },
    { title: 'Uploaded', dataIndex: 'createdAt', render: (value: string) => new Date(value).toLocaleString() },
    {
      title: 'Published',
      render: (_: unknown, row: AdminDocument['versions'][number]) => (
        <Checkbox
          checked={row.published}
          data-testid="document-version-published"
          onChange={(event) =>
            void setDocumentVersionPublished(row.id, event.target.checked).then(reload, (error: unknown) =>
              message.error(errorText(error)),
            )
          }
        />
      ),
    },
  ];
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <DocumentSettingsForm />
      <Space>
        <label htmlFor="document-kind">Kind</label>
        <Select<DocumentKind>
          id="document-kind"
          value={kind}
          style={{ width: 200 }}
          options={DOCUMENT_KINDS.map((value) => ({ value, label: KIND_LABELS[value] }))}
          onChange={setKind}
          data-testid="document-kind"
        />
        <Button
          type="primary"
          data-testid="content-new-document"
          onClick={() => void createDocument(kind).then(reload, (error: unknown) => void message.error(errorText(error)))}
        >
          New document
        </Button>
      </Space>
      {loading && data.length === 0 && <Typography.Text type="secondary">Loading…</Typography.Text>}
      {data.map((document) => (
        <div
          key={document.id}
          className="content-translation"
          data-testid="document-row"
          data-kind={document.kind}
          data-document-id={document.id}
        >
          <Typography.Title level={5}>
            {KIND_LABELS[document.kind]} <Typography.Text code>{`#${documentViewerRoute(document.id)}`}</Typography.Text>
          </Typography.Title>
          <Table rowKey="id" size="small" pagination={false} dataSource={document.versions} columns={versionColumns} />
          <UploadVersion document={document} onDone={reload} />
        </div>
      ))}
    </Space>
  );
}
