import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button, DotLoading, ErrorBlock, Image, TextArea } from 'antd-mobile';
import { PictureOutline } from 'antd-mobile-icons';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CHAT_TEXT_MAX_LENGTH, type ChatMessage, type ChatReadState } from '@custos/contract';
import { fetchPrivateImage } from '../../../lib/api/image';
import { formatDateTime } from '../../../lib/format/time';
import { chatKeys } from '../api/keys';
import { getChatHistory, markChatRead, sendChatMessage, uploadChatImage } from '../api/chat';
import { tickOf, unreadAgentMessage } from '../ticks';

const EMPTY_STATE: ChatReadState = {
  memberDeliveredUpTo: '0',
  memberReadUpTo: '0',
  agentsDeliveredUpTo: '0',
  agentsReadUpTo: '0',
};

/** An image of my conversation, fetched with the credential (never a public URL). */
function ChatImage({ messageId }: { messageId: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetchPrivateImage(`/api/support/chat/image/${messageId}`).then(
      (url) => live && setSrc(url),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [messageId]);
  return src ? <Image src={src} width={160} fit="contain" className="kefu-image" data-testid="kefu-image" /> : <DotLoading />;
}

function Bubble({ message, state }: { message: ChatMessage; state: ChatReadState }) {
  const { t } = useTranslation();
  const mine = message.sender === 'member';
  const tick = tickOf(message, state);
  return (
    <div
      className={`kefu-row ${mine ? 'kefu-row-mine' : 'kefu-row-agent'}`}
      data-testid="kefu-message"
      data-sender={message.sender}
      data-message-id={message.id}
    >
      <div className="kefu-bubble-body">
        {!mine && <div className="kefu-sender">{t('kefu.agent')}</div>}
        {message.text !== null && <div className="kefu-text">{message.text}</div>}
        {message.hasImage && <ChatImage messageId={message.id} />}
        <div className="kefu-meta">
          <span>{formatDateTime(message.createdAt)}</span>
          {tick && (
            <span
              className={`kefu-tick kefu-tick-${tick}`}
              data-testid="kefu-tick"
              data-tick={tick}
              title={t(`kefu.tick.${tick}`)}
            >
              {tick === 'sent' ? '✓' : '✓✓'} {t(`kefu.tick.${tick}`)}
            </span>
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * kefu: the member's real-time chat with customer service (decision 029). History loads by cursor
 * (newest page first, older pages on demand); an agent's message or read receipt arrives on the
 * live channel and invalidates the chat domain, so the list and the ticks refresh themselves.
 */
export default function KefuScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const history = useInfiniteQuery({
    queryKey: chatKeys.history(),
    queryFn: ({ pageParam }) => getChatHistory(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextBefore ?? undefined,
  });
  const pages = history.data?.pages ?? [];
  const state = pages[0]?.state ?? EMPTY_STATE;
  // Pages come newest first; each page is oldest first.
  const messages = [...pages].reverse().flatMap((page) => page.items);
  const newestId = messages.at(-1)?.id;

  const refresh = () => queryClient.invalidateQueries({ queryKey: chatKeys.all });
  const send = useMutation({ mutationFn: sendChatMessage, onSuccess: refresh });

  // What the agents wrote is read once it is on screen; the badge and the agents' ticks follow.
  const toMark = unreadAgentMessage(messages, state);
  useEffect(() => {
    if (!toMark) return;
    markChatRead(toMark).then(
      () => queryClient.invalidateQueries({ queryKey: chatKeys.all }),
      () => undefined,
    );
  }, [toMark, queryClient]);

  // Newest message in view when it arrives (older pages loaded above keep their place).
  useLayoutEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [newestId]);

  const sendText = () => {
    const value = text.trim();
    if (!value) return;
    // The client has already shown a failure (rate limit, validation) as a toast.
    send.mutate({ text: value }, { onSuccess: () => setText('') });
  };

  return (
    <div className="kefu-screen" data-testid="kefu-screen">
      <div className="kefu-list" data-testid="kefu-list">
        {history.hasNextPage && (
          <div className="kefu-older">
            <Button size="mini" fill="none" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
              {t('kefu.older')}
            </Button>
          </div>
        )}
        {history.isPending && (
          <div className="page-loading">
            <DotLoading />
          </div>
        )}
        {history.isError && <ErrorBlock status="default" title={t('kefu.loadFailed')} description="" />}
        {history.isSuccess && messages.length === 0 && (
          <div className="kefu-welcome" data-testid="kefu-welcome">
            {t('kefu.welcome')}
          </div>
        )}
        {messages.map((message) => (
          <Bubble key={message.id} message={message} state={state} />
        ))}
        <div ref={bottom} />
      </div>
      <div className="kefu-composer">
        <input
          ref={fileInput}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          hidden
          data-testid="kefu-image-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (!file) return;
            setUploading(true);
            uploadChatImage(file)
              .then(({ id }) => send.mutateAsync({ imageId: id }))
              .catch(() => undefined)
              .finally(() => setUploading(false));
          }}
        />
        <Button
          fill="none"
          className="kefu-picture"
          aria-label={t('kefu.sendImage')}
          loading={uploading}
          onClick={() => fileInput.current?.click()}
          data-testid="kefu-add-image"
        >
          <PictureOutline fontSize={24} />
        </Button>
        <TextArea
          className="kefu-input"
          value={text}
          onChange={setText}
          placeholder={t('kefu.placeholder')}
          maxLength={CHAT_TEXT_MAX_LENGTH}
          autoSize={{ minRows: 1, maxRows: 4 }}
          data-testid="kefu-input"
        />
        <Button
          color="primary"
          size="small"
          loading={send.isPending && !uploading}
          disabled={text.trim() === ''}
          onClick={sendText}
          data-testid="kefu-send"
        >
          {t('kefu.send')}
        </Button>
      </div>
    </div>
  );
}
