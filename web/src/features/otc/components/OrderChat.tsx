import { useEffect, useLayoutEffect, useRef } from 'react';
import { Button, DotLoading, ErrorBlock } from 'antd-mobile';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { CHAT_TEXT_MAX_LENGTH, type OtcChatMessage } from '@custos/contract';
import { ChatBubble } from '../../../components/chat/ChatBubble';
import { ChatComposer } from '../../../components/chat/ChatComposer';
import { ChatImage } from '../../../components/chat/ChatImage';
import { tickFrom, upTo } from '../../../components/chat/ticks';
import { getOrderChat } from '../api/chat-messages';
import { markOrderChatRead } from '../api/chat-read';
import { sendOrderChat } from '../api/chat-send';
import { otcKeys } from '../api/keys';
import { uploadOtcImage } from '../api/upload-image';

function Message({
  orderId,
  message,
  counterpartyReadUpTo,
}: {
  orderId: string;
  message: OtcChatMessage;
  counterpartyReadUpTo: string;
}) {
  const { t } = useTranslation();
  // The other party's app tells only what it has shown: sent, then read.
  const tick = message.mine ? tickFrom(message.id, { deliveredUpTo: '0', readUpTo: counterpartyReadUpTo }) : null;
  return (
    <ChatBubble
      mine={message.mine}
      sender={message.sender}
      senderLabel={t(`otc.chat.${message.sender}`)}
      messageId={message.id}
      text={message.text}
      image={
        message.hasImage && (
          <ChatImage
            path={`/api/otc/chat_image?id=${encodeURIComponent(orderId)}&messageId=${message.id}`}
            testId="otc-chat-image"
          />
        )
      }
      createdAt={message.createdAt}
      tick={tick && { value: tick, label: t(`otc.chat.tick.${tick}`) }}
      testIdPrefix="otc-chat"
    />
  );
}

/**
 * The order's chat between buyer and seller (and the platform's arbiter during an appeal), built on
 * the customer-service chat's parts. The other party's message arrives on the live channel
 * (`otc.chat`), which invalidates the order chats; the history stays once the order closes.
 */
export function OrderChat({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const bottom = useRef<HTMLDivElement>(null);
  const marked = useRef<string>('0');
  const history = useInfiniteQuery({
    queryKey: otcKeys.chat(orderId),
    queryFn: ({ pageParam }) => getOrderChat(orderId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextBefore ?? undefined,
  });
  const pages = history.data?.pages ?? [];
  const newestPage = pages[0];
  const messages = [...pages].reverse().flatMap((page) => page.items);
  const newestId = messages.at(-1)?.id;
  const open = newestPage?.open ?? false;

  const refresh = () => queryClient.invalidateQueries({ queryKey: otcKeys.chat(orderId) });
  const send = useMutation({
    mutationFn: (body: { text?: string; imageId?: string }) => sendOrderChat({ orderId, ...body }),
    onSuccess: refresh,
  });

  // The other party's newest message is read once it is on screen (their ticks follow).
  const newestOther = [...messages].reverse().find((message) => !message.mine)?.id;
  useEffect(() => {
    if (!newestOther || upTo(newestOther, marked.current)) return;
    marked.current = newestOther;
    markOrderChatRead(orderId, newestOther).catch(() => {
      marked.current = '0';
    });
  }, [newestOther, orderId]);

  useLayoutEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [newestId]);

  return (
    <div className="otc-chat" data-testid="otc-chat">
      <div className="otc-chat-list">
        {history.hasNextPage && (
          <div className="kefu-older">
            <Button size="mini" fill="none" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
              {t('otc.chat.older')}
            </Button>
          </div>
        )}
        {history.isPending && (
          <div className="page-loading">
            <DotLoading />
          </div>
        )}
        {history.isError && <ErrorBlock status="default" title={t('otc.chat.loadFailed')} description="" />}
        {history.isSuccess && messages.length === 0 && (
          <div className="kefu-welcome" data-testid="otc-chat-welcome">
            {t('otc.chat.welcome')}
          </div>
        )}
        {newestPage &&
          messages.map((message) => (
            <Message
              key={message.id}
              orderId={orderId}
              message={message}
              counterpartyReadUpTo={newestPage.counterpartyReadUpTo}
            />
          ))}
        {history.isSuccess && !open && (
          <div className="kefu-welcome" data-testid="otc-chat-closed">
            {t('otc.chat.closed')}
          </div>
        )}
        <div ref={bottom} />
      </div>
      {open && (
        <ChatComposer
          onSendText={(text) => send.mutateAsync({ text })}
          onSendImage={(file) => uploadOtcImage(file, 'chat').then(({ id }) => send.mutateAsync({ imageId: id }))}
          sending={send.isPending}
          maxLength={CHAT_TEXT_MAX_LENGTH}
          labels={{ placeholder: t('otc.chat.placeholder'), send: t('otc.chat.send'), sendImage: t('otc.chat.sendImage') }}
          testIdPrefix="otc-chat"
        />
      )}
    </div>
  );
}
