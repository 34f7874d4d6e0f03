import { useRef, useState } from 'react';
import { Button, TextArea } from 'antd-mobile';
import { PictureOutline } from 'antd-mobile-icons';

interface ChatComposerProps {
  /** Sends a text; resolves when it was stored (the box is then emptied), rejects when refused. */
  onSendText: (text: string) => Promise<unknown>;
  /** Uploads and sends an image; rejects when refused (the client has shown why). */
  onSendImage: (file: File) => Promise<unknown>;
  sending: boolean;
  maxLength: number;
  labels: { placeholder: string; send: string; sendImage: string };
  /** The prefix of the test ids: `<prefix>-input`, `<prefix>-send`, `<prefix>-add-image`, `<prefix>-image-input`. */
  testIdPrefix: string;
  disabled?: boolean;
}

/** The box under a conversation: a picture button, the text and Send. */
export function ChatComposer({ onSendText, onSendImage, sending, maxLength, labels, testIdPrefix, disabled }: ChatComposerProps) {
  const [text, setText] = useState('');
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const sendText = () => {
    const value = text.trim();
    if (!value) return;
    // The client has already shown a failure (rate limit, validation) as a toast.
    onSendText(value).then(
      () => setText(''),
      () => undefined,
    );
  };

  return (
    <div className="chat-composer">
      <input
        ref={fileInput}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        hidden
        data-testid={`${testIdPrefix}-image-input`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          setUploading(true);
          onSendImage(file)
            .catch(() => undefined)
            .finally(() => setUploading(false));
        }}
      />
      <Button
        fill="none"
        className="chat-picture"
        aria-label={labels.sendImage}
        loading={uploading}
        disabled={disabled}
        onClick={() => fileInput.current?.click()}
        data-testid={`${testIdPrefix}-add-image`}
      >
        <PictureOutline fontSize={24} />
      </Button>
      <TextArea
        className="chat-input"
        value={text}
        onChange={setText}
        placeholder={labels.placeholder}
        maxLength={maxLength}
        disabled={disabled}
        autoSize={{ minRows: 1, maxRows: 4 }}
        data-testid={`${testIdPrefix}-input`}
      />
      <Button
        color="primary"
        size="small"
        loading={sending && !uploading}
        disabled={disabled || text.trim() === ''}
        onClick={sendText}
        data-testid={`${testIdPrefix}-send`}
      >
        {labels.send}
      </Button>
    </div>
  );
}
