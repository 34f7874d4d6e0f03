import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { App, Button, Drawer, Form, Popconfirm, Select, Space, type FormInstance, type FormListFieldData } from 'antd';
import { LOCALES, LOCALE_NATIVE_NAMES } from '@custos/contract';

/*
 * What every content editor in the console shares (decisions 026, 028): a list read from the
 * server, a drawer with a form, one block of fields per language, save and delete.
 */

export const LOCALE_OPTIONS = LOCALES.map((locale) => ({ value: locale, label: `${LOCALE_NATIVE_NAMES[locale]} (${locale})` }));

export const STATUS_OPTIONS = [
  { value: 'draft', label: 'Draft' },
  { value: 'published', label: 'Published' },
];

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result.replace(/^data:[^,]*,/, '') : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

export function useList<T>(load: () => Promise<T>, initial: T) {
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

/**
 * The state of one drawer editor over rows of type R with a form of type F: which row is open
 * (or a new one), saving it (then the list reloads) and deleting it.
 */
export function useDrawerEditor<R extends { id: string }, F extends object>(options: {
  label: string;
  blank: F;
  toForm: (row: R) => F;
  save: (id: string | null, values: F) => Promise<unknown>;
  remove?: (id: string) => Promise<unknown>;
  reload: () => void;
}) {
  const { message } = App.useApp();
  const [editing, setEditing] = useState<R | 'new' | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<F>();
  const { label, blank, toForm, save, remove, reload } = options;

  const open = (row: R | 'new') => {
    setEditing(row);
    form.resetFields();
    form.setFieldsValue(row === 'new' ? blank : toForm(row));
  };
  const close = () => setEditing(null);
  const done = () => {
    setEditing(null);
    reload();
  };
  const submit = (values: F) => {
    setSaving(true);
    save(editing === 'new' || editing === null ? null : editing.id, values)
      .then(
        () => {
          void message.success(`${label} saved`);
          done();
        },
        (error: unknown) => void message.error(errorText(error)),
      )
      .finally(() => setSaving(false));
  };
  const onDelete =
    remove && editing !== null && editing !== 'new'
      ? () => void remove(editing.id).then(done, (error: unknown) => void message.error(errorText(error)))
      : undefined;
  return { editing, open, close, form, saving, submit, onDelete, label };
}

/** The drawer of an editor: its form, Save and (for an existing row) Delete. */
export function EditorDrawer<F extends object>({
  editor,
  testId,
  width = 720,
  children,
}: {
  editor: {
    editing: unknown;
    close: () => void;
    form: FormInstance<F>;
    saving: boolean;
    submit: (values: F) => void;
    onDelete: (() => void) | undefined;
    label: string;
  };
  testId: string;
  width?: number;
  children: ReactNode;
}) {
  return (
    <Drawer width={width} open={editor.editing !== null} onClose={editor.close} title={editor.label} forceRender>
      <Form<F> form={editor.form} layout="vertical" onFinish={editor.submit}>
        {children}
        <Space style={{ marginTop: 16 }}>
          <Button type="primary" htmlType="submit" loading={editor.saving} data-testid={`${testId}-save`}>
            Save
          </Button>
          {editor.onDelete && (
            <Popconfirm title={`Delete this ${editor.label.toLowerCase()}?`} onConfirm={editor.onDelete}>
              <Button danger data-testid={`${testId}-delete`}>
                Delete
              </Button>
            </Popconfirm>
          )}
        </Space>
      </Form>
    </Drawer>
  );
}

/**
 * One block of fields per language: the language select, the fields `fields` draws for it, and
 * "Add language" / "Remove language". Test ids: `<testId>-locale-<n>`, `<testId>-add-language`.
 */
export function TranslationsList({
  testId,
  blank,
  fields: drawFields,
  below,
}: {
  testId: string;
  blank: Record<string, unknown>;
  fields: (field: FormListFieldData, index: number) => ReactNode;
  /** Fields drawn under the row (a long text), if any. */
  below?: (field: FormListFieldData, index: number) => ReactNode;
}) {
  return (
    <Form.List name="translations">
      {(fields, { add, remove }) => (
        <Space direction="vertical" style={{ width: '100%' }}>
          {fields.map((field, index) => (
            <div key={field.key} className="content-translation">
              <Space align="start" wrap>
                <Form.Item name={[field.name, 'locale']} label="Language" rules={[{ required: true }]}>
                  <Select options={LOCALE_OPTIONS} style={{ width: 180 }} data-testid={`${testId}-locale-${index}`} />
                </Form.Item>
                {drawFields(field, index)}
                {fields.length > 1 && <Button onClick={() => remove(field.name)}>Remove language</Button>}
              </Space>
              {below?.(field, index)}
            </div>
          ))}
          <Button onClick={() => add({ ...blank, locale: undefined })} data-testid={`${testId}-add-language`}>
            Add language
          </Button>
        </Space>
      )}
    </Form.List>
  );
}

/** A table cell: every language version's text, "en: … · zh-Hans: …". */
export function perLanguage<T extends { locale: string }>(translations: T[], text: (entry: T) => string): string {
  return translations.map((entry) => `${entry.locale}: ${text(entry)}`).join(' · ');
}
