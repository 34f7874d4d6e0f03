import { useEffect, useLayoutEffect, useRef } from 'react';
import { Button, DotLoading, ErrorBlock } from 'antd-mobile';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { CHAT_TEXT_MAX_LENGTH, type ChatMessage, type ChatReadState } from '@custos/contract';
import { ChatBubble } from '../../../components/chat/ChatBubble';
import { ChatComposer } from '../../../components/chat/ChatComposer';
import { ChatImage } from '../../../components/chat/ChatImage';
import { chatKeys } from '../api/keys';
import { getChatHistory, markChatRead, sendChatMessage, uploadChatImage } from '../api/chat';
import { tickOf, unreadAgentMessage } from '../ticks';

const EMPTY_STATE: ChatReadState = {
  memberDeliveredUpTo: '0',
  memberReadUpTo: '0',
  agentsDeliveredUpTo: '0',
  agentsReadUpTo: '0',
};

function Bubble({ message, state }: { message: ChatMessage; state: ChatReadState }) {
  const { t } = useTranslation();
  const tick = tickOf(message, state);
  return (
    <ChatBubble
      mine={message.sender === 'member'}
      sender={message.sender}
      senderLabel={t('kefu.agent')}
      messageId={message.id}
      text={message.text}
      image={message.hasImage && <ChatImage path={`/api/support/chat/image/${message.id}`} testId="kefu-image" />}
      createdAt={message.createdAt}
      tick={tick && { value: tick, label: t(`kefu.tick.${tick}`) }}
      testIdPrefix="kefu"
    />
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
      <ChatComposer
        onSendText={(text) => send.mutateAsync({ text })}
        onSendImage={(file) => uploadChatImage(file).then(({ id }) => send.mutateAsync({ imageId: id }))}
        sending={send.isPending}
        maxLength={CHAT_TEXT_MAX_LENGTH}
        labels={{ placeholder: t('kefu.placeholder'), send: t('kefu.send'), sendImage: t('kefu.sendImage') }}
        testIdPrefix="kefu"
      />
    </div>
  );
}
