import type { ReactNode } from 'react';
import { formatDateTime } from '../../lib/format/time';
import type { Tick } from './ticks';

interface ChatBubbleProps {
  /** My own message: on the right, with a tick. */
  mine: boolean;
  /** Who wrote it, shown above the other side's messages. */
  senderLabel?: string | null;
  /** What the sender is called in the markup (`data-sender`). */
  sender: string;
  messageId: string;
  text: string | null;
  image?: ReactNode;
  createdAt: string;
  tick?: { value: Tick; label: string } | null;
  /** The prefix of the test ids: `<prefix>-message`, `<prefix>-tick`. */
  testIdPrefix: string;
}

/** One message of a conversation (customer service, an OTC order's chat). */
export function ChatBubble({
  mine,
  senderLabel,
  sender,
  messageId,
  text,
  image,
  createdAt,
  tick,
  testIdPrefix,
}: ChatBubbleProps) {
  return (
    <div
      className={`chat-row ${mine ? 'chat-row-mine' : 'chat-row-other'}`}
      data-testid={`${testIdPrefix}-message`}
      data-sender={sender}
      data-message-id={messageId}
    >
      <div className="chat-bubble-body">
        {!mine && senderLabel && <div className="chat-sender">{senderLabel}</div>}
        {text !== null && <div className="chat-text">{text}</div>}
        {image}
        <div className="chat-meta">
          <span>{formatDateTime(createdAt)}</span>
          {tick && (
            <span
              className={`chat-tick chat-tick-${tick.value}`}
              data-testid={`${testIdPrefix}-tick`}
              data-tick={tick.value}
              title={tick.label}
            >
              {tick.value === 'sent' ? '✓' : '✓✓'} {tick.label}
            </span>
          )}
        </div>
      </div>
    </div>
  );
}
