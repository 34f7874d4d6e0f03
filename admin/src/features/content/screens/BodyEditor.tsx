import { useEffect, useRef, useState } from 'react';
import { App, Button, Input, Space } from 'antd';
import { previewHtml, uploadContentImage } from '../api/content';
import { errorText, readBase64 } from './editor-parts';

/**
 * The article editor: HTML typed in a text area, with a live preview of what the server would
 * store (it sanitises on save; the preview asks it, so the console never renders unsanitised HTML).
 */
export function BodyEditor({ value = '', onChange, testId }: { value?: string; onChange?: (value: string) => void; testId: string }) {
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

