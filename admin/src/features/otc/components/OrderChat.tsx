import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Typography } from 'antd';
import type { AdminOtcOrderDetail, adminOtcChatMessageSchema } from '@custos/contract';
import type { z } from 'zod';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { getOtcOrderChat, otcChatImagePath } from '../api/otc';
import { otcKeys } from '../api/keys';
import { PrivateImage } from './PrivateImage';

type Message = z.infer<typeof adminOtcChatMessageSchema>;

function author(message: Message, order: AdminOtcOrderDetail): string {
  switch (message.sender) {
    case 'buyer':
      return `Buyer · ${order.buyer.email}`;
    case 'seller':
      return `Seller · ${order.seller.email}`;
    case 'agent':
      return `Arbiter · ${message.agentName ?? 'platform'}`;
  }
}

/**
 * An order's whole chat between buyer and seller, read-only: an operator rules on what the parties
 * said and showed. The newest page comes through the cache (the live channel refreshes it); earlier
 * pages are fetched on request and kept while the order is open.
 */
export function OrderChat({ order }: { order: AdminOtcOrderDetail }) {
  const newest = useQuery({ queryKey: otcKeys.chat(order.id), queryFn: () => getOtcOrderChat(order.id) });
  const [older, setOlder] = useState<{ items: Message[]; nextBefore: string | null } | null>(null);
  const [olderError, setOlderError] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const page = newest.data;
  const newestIds = new Set(page?.items.map((item) => item.id) ?? []);
  const messages = [...(older?.items.filter((item) => !newestIds.has(item.id)) ?? []), ...(page?.items ?? [])];
  const nextBefore = older ? older.nextBefore : (page?.nextBefore ?? null);

  const loadOlder = () => {
    if (!nextBefore) return;
    setLoadingOlder(true);
    setOlderError(null);
    getOtcOrderChat(order.id, nextBefore)
      .then(
        (earlier) =>
          setOlder((current) => ({ items: [...earlier.items, ...(current?.items ?? [])], nextBefore: earlier.nextBefore })),
        (reason: unknown) => setOlderError(errorText(reason)),
      )
      .finally(() => setLoadingOlder(false));
  };

  return (
    <Card size="small" title="Order chat (read-only)" loading={newest.isPending} data-testid="otc-chat">
      {newest.isError && <Alert type="error" showIcon title={errorText(newest.error)} />}
      {olderError && <Alert type="error" showIcon title={olderError} />}
      {page && messages.length === 0 && <Empty description="The parties have not written" />}
      <div className="support-messages">
        {nextBefore && (
          <Button size="small" type="link" loading={loadingOlder} onClick={loadOlder} data-testid="otc-chat-older">
            Earlier messages
          </Button>
        )}
        {messages.map((item) => (
          <div
            key={item.id}
            className={item.sender === 'agent' ? 'support-message support-message-agent' : 'support-message'}
            data-testid="otc-chat-message"
            data-sender={item.sender}
          >
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {author(item, order)} · {formatTime(item.createdAt)}
              </Typography.Text>
            </div>
            {item.text !== null && <div className="support-message-text">{item.text}</div>}
            {item.hasImage && (
              <PrivateImage path={otcChatImagePath(order.id, item.id)} alt="Chat image" testId="otc-chat-image" />
            )}
          </div>
        ))}
      </div>
    </Card>
  );
}
