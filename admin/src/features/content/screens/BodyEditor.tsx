import { useEffect, useRef, useState } from 'react';
import { App, Button, Input, Space, Tooltip } from 'antd';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { readStyleNonce } from '../../../app/style-nonce';
import { previewHtml, uploadContentImage } from '../api/content';
import { errorText, readBase64 } from './editor-parts';

/** The rich editor's buttons: what the server's allow-list keeps (decision 026), nothing more. */
function Toolbar({ editor, testId, onImage }: { editor: Editor; testId: string; onImage: (file: File) => void }) {
  const chain = () => editor.chain().focus();
  const button = (label: string, title: string, active: boolean, run: () => void, id: string) => (
    <Tooltip title={title} key={id}>
      <Button
        size="small"
        type={active ? 'primary' : 'default'}
        onMouseDown={(event) => event.preventDefault()}
        onClick={run}
        data-testid={`${testId}-${id}`}
      >
        {label}
      </Button>
    </Tooltip>
  );
  return (
    <Space wrap style={{ marginBottom: 8 }}>
      {button('B', 'Bold', editor.isActive('bold'), () => chain().toggleBold().run(), 'bold')}
      {button('I', 'Italic', editor.isActive('italic'), () => chain().toggleItalic().run(), 'italic')}
      {button('U', 'Underline', editor.isActive('underline'), () => chain().toggleUnderline().run(), 'underline')}
      {button('H2', 'Heading', editor.isActive('heading', { level: 2 }), () => chain().toggleHeading({ level: 2 }).run(), 'h2')}
      {button(
        'H3',
        'Subheading',
        editor.isActive('heading', { level: 3 }),
        () => chain().toggleHeading({ level: 3 }).run(),
        'h3',
      )}
      {button('• List', 'Bulleted list', editor.isActive('bulletList'), () => chain().toggleBulletList().run(), 'bullets')}
      {button('1. List', 'Numbered list', editor.isActive('orderedList'), () => chain().toggleOrderedList().run(), 'numbers')}
      {button('❝', 'Quote', editor.isActive('blockquote'), () => chain().toggleBlockquote().run(), 'quote')}
      {button('―', 'Rule', false, () => chain().setHorizontalRule().run(), 'rule')}
      {button(
        'Link',
        'Link (https:// or mailto:)',
        editor.isActive('link'),
        () => {
          const current = (editor.getAttributes('link') as { href?: string }).href ?? 'https://';
          const href = window.prompt('Link address (https:// or mailto:)', current);
          if (href === null) return;
          if (href.trim() === '') chain().extendMarkRange('link').unsetLink().run();
          else chain().extendMarkRange('link').setLink({ href: href.trim() }).run();
        },
        'link',
      )}
      {button('↶', 'Undo', false, () => chain().undo().run(), 'undo')}
      {button('↷', 'Redo', false, () => chain().redo().run(), 'redo')}
      <input
        type="file"
        accept="image/jpeg,image/png,image/webp"
        data-testid={`${testId}-image`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onImage(file);
        }}
      />
    </Space>
  );
}

/**
 * The body of a news or help article (decision 028): a rich-text editor (TipTap on ProseMirror:
 * no eval, no inline script; the few <style> elements it writes carry the page's nonce), the same
 * text as HTML for those who type it, and a live preview of what the server would store. The
 * server sanitises on save with its own allow-list and is the one trust boundary; the preview asks
 * it, so the console never renders unsanitised HTML either.
 */
export function BodyEditor({
  value = '',
  onChange,
  testId,
}: {
  value?: string;
  onChange?: (value: string) => void;
  testId: string;
}) {
  const { message } = App.useApp();
  const [preview, setPreview] = useState('');
  const latest = useRef(0);
  // The HTML the editor last sent (or last saw): a value that differs came from elsewhere.
  const sent = useRef<string | null>(null);
  // The form's latest onChange, for the editor's update handler (made once, with the editor).
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        code: false,
        codeBlock: false,
        link: { openOnClick: false, autolink: false, protocols: ['https', 'mailto'] },
      }),
      Image,
    ],
    content: '',
    injectNonce: readStyleNonce(),
    immediatelyRender: true,
    editorProps: { attributes: { 'data-testid': `${testId}-rich`, class: 'content-rich-editor' } },
    onUpdate: ({ editor: updated }) => {
      const html = updated.isEmpty ? '' : updated.getHTML();
      sent.current = html;
      changed.current?.(html);
    },
  });

  // HTML from elsewhere (the HTML box, an article opened for editing) reaches the rich editor only
  // as the server's sanitised answer: the editor never parses unsanitised markup either (parsing it
  // would make the browser try its event handlers, which the CSP blocks and reports).
  useEffect(() => {
    const external = value !== sent.current;
    sent.current = value;
    const request = ++latest.current;
    if (!value.trim()) {
      setPreview('');
      if (external) editor?.commands.setContent('', { emitUpdate: false });
      return;
    }
    const timer = setTimeout(() => {
      previewHtml(value).then(
        (result) => {
          if (request !== latest.current) return;
          setPreview(result.html);
          if (external) editor?.commands.setContent(result.html, { emitUpdate: false });
        },
        () => undefined,
      );
    }, 500);
    return () => clearTimeout(timer);
  }, [editor, value]);

  const insertImage = (file: File) =>
    void readBase64(file)
      .then(uploadContentImage)
      .then(
        (image) => editor?.chain().focus().setImage({ src: image.url, alt: '' }).run(),
        (error: unknown) => void message.error(errorText(error)),
      );

  return (
    <div className="content-editor">
      {editor && <Toolbar editor={editor} testId={testId} onImage={insertImage} />}
      <div className="content-editor-panes">
        <EditorContent editor={editor} />
        {/* The server's sanitised answer, never the raw text. */}
        <div className="content-preview" data-testid={`${testId}-preview`} dangerouslySetInnerHTML={{ __html: preview }} />
      </div>
      <Input.TextArea
        rows={4}
        value={value}
        placeholder="HTML"
        onChange={(event) => onChange?.(event.target.value)}
        data-testid={testId}
        className="content-html-source"
      />
    </div>
  );
}
