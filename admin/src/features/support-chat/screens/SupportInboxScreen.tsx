import { useEffect, useRef, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Col,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Image,
  Input,
  List,
  Popconfirm,
  Row,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import {
  CANNED_REPLY_TITLE_MAX_LENGTH,
  CHAT_TEXT_MAX_LENGTH,
  type CannedReply,
  type ChatHistory,
  type ChatMessage,
  type SupportConversationItem,
  type SupportInboxFilter,
  type SupportMemberContext,
} from '@custos/contract';
import {
  assign,
  deleteCannedReply,
  fetchChatImage,
  fileToBase64,
  getConversation,
  getMessages,
  listCannedReplies,
  listConversations,
  markRead,
  saveCannedReply,
  sendMessage,
} from '../api/support-chat';
import { openInboxChannel } from '../api/inbox-channel';
import { supportKeys } from '../api/keys';
import { errorText } from '../../../lib/query/query-client';

const PAGE_SIZE = 20;

function preview(item: SupportConversationItem): string {
  const last = item.lastMessage;
  if (!last) return '—';
  const body = last.text ?? (last.hasImage ? '[image]' : '');
  return `${last.sender === 'agent' ? 'Agent: ' : ''}${body}`;
}

function ChatImage({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    fetchChatImage(conversationId, messageId).then(
      (created) => {
        objectUrl = created;
        setUrl(created);
      },
      (reason: unknown) => setError(errorText(reason)),
    );
    return () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [conversationId, messageId]);
  return url ? (
    <Image src={url} width={160} alt="Chat image" data-testid="support-image" />
  ) : (
    <Typography.Text type="danger">{error ?? '…'}</Typography.Text>
  );
}

/** Where the member's view of an agent's message stands. */
function memberTick(message: ChatMessage, history: ChatHistory): string | null {
  if (message.sender !== 'agent') return null;
  if (BigInt(message.id) <= BigInt(history.state.memberReadUpTo)) return 'Read';
  if (BigInt(message.id) <= BigInt(history.state.memberDeliveredUpTo)) return 'Delivered';
  return 'Sent';
}

function MemberContextPanel({ member }: { member: SupportMemberContext }) {
  return (
    <Card size="small" title="Member" data-testid="support-member-context">
      <Descriptions size="small" column={1}>
        <Descriptions.Item label="E-mail">{member.email}</Descriptions.Item>
        <Descriptions.Item label="Nickname">{member.nickname}</Descriptions.Item>
        <Descriptions.Item label="Status">{member.status}</Descriptions.Item>
        <Descriptions.Item label="Level">
          <span data-testid="support-member-level">V{member.level}</span>
        </Descriptions.Item>
      </Descriptions>
      <Table
        size="small"
        rowKey="asset"
        pagination={false}
        dataSource={member.balances}
        columns={[
          { title: 'Asset', dataIndex: 'asset' },
          { title: 'Available', dataIndex: 'available', align: 'right' },
          { title: 'Held', dataIndex: 'held', align: 'right' },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 12 }}>
        Recent custody orders
      </Typography.Title>
      {member.recentOrders.length === 0 ? (
        <Typography.Text type="secondary">None</Typography.Text>
      ) : (
        <List
          size="small"
          dataSource={member.recentOrders}
          renderItem={(order) => (
            <List.Item>
              {order.planName} · {order.amount} USDT · <Tag>{order.status}</Tag> {new Date(order.createdAt).toLocaleDateString()}
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

function CannedRepliesDrawer({ open, onClose, onChanged }: { open: boolean; onClose: () => void; onChanged: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const canned = useQuery({ queryKey: supportKeys.canned, queryFn: listCannedReplies, enabled: open });
  const items: CannedReply[] = canned.data?.items ?? [];
  const [editing, setEditing] = useState<CannedReply | null>(null);
  const [form] = Form.useForm<{ title: string; text: string }>();
  const load = () => void queryClient.invalidateQueries({ queryKey: supportKeys.canned });
  return (
    <Drawer title="Canned replies" open={open} onClose={onClose} width={520} destroyOnHidden>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => {
          saveCannedReply(values, editing?.id).then(
            () => {
              void message.success('Saved');
              form.resetFields();
              setEditing(null);
              load();
              onChanged();
            },
            (error: unknown) => void message.error(errorText(error)),
          );
        }}
      >
        <Form.Item name="title" label="Title" rules={[{ required: true, whitespace: true }]}>
          <Input maxLength={CANNED_REPLY_TITLE_MAX_LENGTH} data-testid="canned-title" />
        </Form.Item>
        <Form.Item name="text" label="Text" rules={[{ required: true, whitespace: true }]}>
          <Input.TextArea maxLength={CHAT_TEXT_MAX_LENGTH} rows={3} data-testid="canned-text" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="canned-save">
            {editing ? 'Save changes' : 'Add'}
          </Button>
          {editing && (
            <Button
              onClick={() => {
                setEditing(null);
                form.resetFields();
              }}
            >
              Cancel
            </Button>
          )}
        </Space>
      </Form>
      <List
        style={{ marginTop: 16 }}
        dataSource={items}
        renderItem={(item) => (
          <List.Item
            data-testid="canned-item"
            actions={[
              <Button
                key="edit"
                size="small"
                onClick={() => {
                  setEditing(item);
                  form.setFieldsValue({ title: item.title, text: item.text });
                }}
              >
                Edit
              </Button>,
              <Popconfirm
                key="delete"
                title="Remove this canned reply?"
                onConfirm={() =>
                  void deleteCannedReply(item.id).then(
                    () => {
                      load();
                      onChanged();
                    },
                    (error: unknown) => void message.error(errorText(error)),
                  )
                }
              >
                <Button size="small" danger>
                  Remove
                </Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta title={item.title} description={item.text} />
          </List.Item>
        )}
      />
    </Drawer>
  );
}

function Conversation({
  conversationId,
  refreshKey,
  cannedReplies,
}: {
  conversationId: string;
  refreshKey: number;
  cannedReplies: CannedReply[];
}) {
  const { message } = App.useApp();
  const [detail, setDetail] = useState<{ conversation: SupportConversationItem; member: SupportMemberContext } | null>(null);
  const [history, setHistory] = useState<ChatHistory | null>(null);
  const [older, setOlder] = useState<ChatMessage[]>([]);
  const [olderCursor, setOlderCursor] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    setOlder([]);
    setOlderCursor(null);
    setText('');
  }, [conversationId]);

  useEffect(() => {
    let live = true;
    Promise.all([getConversation(conversationId), getMessages(conversationId)]).then(
      ([loaded, page]) => {
        if (!live) return;
        setDetail(loaded);
        setHistory(page);
        const newestMember = [...page.items].reverse().find((item) => item.sender === 'member');
        // Shown to an agent: read (the member's ticks and every inbox's unread count follow).
        if (newestMember && BigInt(newestMember.id) > BigInt(page.state.agentsReadUpTo)) {
          markRead(conversationId, newestMember.id).catch(() => undefined);
        }
      },
      (error: unknown) => void message.error(errorText(error)),
    );
    return () => {
      live = false;
    };
  }, [conversationId, refreshKey, message]);

  const send = (body: { text: string } | { imageBase64: string }) => {
    setSending(true);
    sendMessage(conversationId, body)
      .then(
        () => {
          if ('text' in body) setText('');
          return getMessages(conversationId).then(setHistory);
        },
        (error: unknown) => void message.error(errorText(error)),
      )
      .finally(() => setSending(false));
  };

  if (!detail || !history) return <Card loading />;
  const messages = [...older, ...history.items];
  const nextBefore = older.length > 0 ? olderCursor : history.nextBefore;
  const conversation = detail.conversation;
  return (
    <Row gutter={16}>
      <Col span={16}>
        <Card
          size="small"
          title={conversation.email}
          extra={
            <Space>
              <Typography.Text data-testid="support-assigned">
                {conversation.assignedOperatorName ? `Assigned: ${conversation.assignedOperatorName}` : 'Unassigned'}
              </Typography.Text>
              <Button
                size="small"
                data-testid="support-assign-me"
                onClick={() =>
                  void assign(conversationId, 'me').then(
                    (item) => setDetail({ ...detail, conversation: item }),
                    (error: unknown) => void message.error(errorText(error)),
                  )
                }
              >
                Assign to me
              </Button>
              <Button
                size="small"
                disabled={!conversation.assignedOperatorId}
                onClick={() =>
                  void assign(conversationId, 'nobody').then(
                    (item) => setDetail({ ...detail, conversation: item }),
                    (error: unknown) => void message.error(errorText(error)),
                  )
                }
              >
                Unassign
              </Button>
            </Space>
          }
        >
          <div className="support-messages" data-testid="support-messages">
            {nextBefore && (
              <Button
                size="small"
                type="link"
                onClick={() =>
                  void getMessages(conversationId, nextBefore).then(
                    (page) => {
                      setOlder((current) => [...page.items, ...current]);
                      setOlderCursor(page.nextBefore);
                    },
                    (error: unknown) => void message.error(errorText(error)),
                  )
                }
              >
                Earlier messages
              </Button>
            )}
            {messages.map((item) => (
              <div
                key={item.id}
                className={`support-message support-message-${item.sender}`}
                data-testid="support-message"
                data-sender={item.sender}
              >
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {item.sender === 'agent' ? (item.agentName ?? 'Agent') : 'Member'} · {new Date(item.createdAt).toLocaleString()}
                  {memberTick(item, history) && <span data-testid="support-tick"> · {memberTick(item, history)}</span>}
                </Typography.Text>
                {item.text !== null && <div className="support-message-text">{item.text}</div>}
                {item.hasImage && <ChatImage conversationId={conversationId} messageId={item.id} />}
              </div>
            ))}
          </div>
          <Space direction="vertical" style={{ width: '100%', marginTop: 12 }}>
            <Select
              placeholder="Insert a canned reply"
              style={{ width: '100%' }}
              value={null}
              options={cannedReplies.map((reply) => ({ value: reply.id, label: reply.title }))}
              onChange={(replyId: string) => {
                const reply = cannedReplies.find((item) => item.id === replyId);
                if (reply) setText(reply.text);
              }}
              data-testid="support-canned-select"
            />
            <Input.TextArea
              value={text}
              onChange={(event) => setText(event.target.value)}
              maxLength={CHAT_TEXT_MAX_LENGTH}
              rows={3}
              placeholder="Reply to the member"
              data-testid="support-reply-input"
            />
            <Space>
              <Button
                type="primary"
                loading={sending}
                disabled={text.trim() === ''}
                onClick={() => send({ text: text.trim() })}
                data-testid="support-reply-send"
              >
                Send
              </Button>
              <input
                ref={fileInput}
                type="file"
                accept="image/jpeg,image/png,image/webp"
                hidden
                data-testid="support-image-input"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (!file) return;
                  fileToBase64(file).then(
                    (imageBase64) => send({ imageBase64 }),
                    (error: unknown) => void message.error(errorText(error)),
                  );
                }}
              />
              <Button onClick={() => fileInput.current?.click()} disabled={sending}>
                Send an image
              </Button>
            </Space>
          </Space>
        </Card>
      </Col>
      <Col span={8}>
        <MemberContextPanel member={detail.member} />
      </Col>
    </Row>
  );
}

/**
 * The customer-service inbox (decision 029): conversations with unread counts, assignment, replies
 * with text, images and canned replies, and the member's context. A live channel refreshes it when
 * a member writes or reads, on whichever server instance that happened.
 */
export function SupportInboxScreen() {
  const [filter, setFilter] = useState<SupportInboxFilter>('all');
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const conversations = useQuery({
    queryKey: supportKeys.list(filter, page),
    queryFn: () => listConversations(filter, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const data: { items: SupportConversationItem[]; total: number; unreadTotal: number } = conversations.data ?? {
    items: [],
    total: 0,
    unreadTotal: 0,
  };
  const [selected, setSelected] = useState<string | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const [cannedOpen, setCannedOpen] = useState(false);
  const canned = useQuery({ queryKey: supportKeys.canned, queryFn: listCannedReplies });
  const cannedReplies: CannedReply[] = canned.data?.items ?? [];
  const [connected, setConnected] = useState(false);
  const selectedRef = useRef<string | null>(null);
  selectedRef.current = selected;

  const loadCanned = () => void queryClient.invalidateQueries({ queryKey: supportKeys.canned });

  // Any change (a message, a receipt, an assignment) refreshes the list; the open conversation too if it is the one.
  useEffect(
    () =>
      openInboxChannel(
        (event) => {
          void queryClient.invalidateQueries({ queryKey: supportKeys.lists });
          if (event.data.conversationId === selectedRef.current) setRefreshKey((key) => key + 1);
        },
        () => setConnected(true),
      ),
    [queryClient],
  );

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      {conversations.isError && <Alert type="error" showIcon title={errorText(conversations.error)} />}
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          Customer service <Badge count={data.unreadTotal} overflowCount={999} data-testid="support-unread-total" />
        </Typography.Title>
        <Space>
          <Tag color={connected ? 'green' : 'default'} data-testid="support-live">
            {connected ? 'Live' : 'Connecting…'}
          </Tag>
          <Button onClick={() => setCannedOpen(true)} data-testid="canned-manage">
            Canned replies
          </Button>
        </Space>
      </Space>
      <Row gutter={16}>
        <Col span={7}>
          <Segmented<SupportInboxFilter>
            options={[
              { label: 'All', value: 'all' },
              { label: 'Unread', value: 'unread' },
              { label: 'Mine', value: 'mine' },
              { label: 'Unassigned', value: 'unassigned' },
            ]}
            value={filter}
            onChange={(value) => {
              setPage(1);
              setFilter(value);
            }}
          />
          <List
            style={{ marginTop: 12 }}
            dataSource={data.items}
            locale={{ emptyText: <Empty description="No conversations" /> }}
            pagination={
              data.total > PAGE_SIZE
                ? { current: page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage, size: 'small' }
                : false
            }
            renderItem={(item) => (
              <List.Item
                onClick={() => setSelected(item.id)}
                className={item.id === selected ? 'support-conversation support-conversation-selected' : 'support-conversation'}
                style={{ cursor: 'pointer' }}
                data-testid="support-conversation"
                data-email={item.email}
                extra={<Badge count={item.unread} overflowCount={999} data-testid="support-conversation-unread" />}
              >
                <List.Item.Meta
                  title={item.email}
                  description={
                    <>
                      <div className="support-preview">{preview(item)}</div>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {item.assignedOperatorName ? `Assigned: ${item.assignedOperatorName}` : 'Unassigned'}
                        {item.lastMessage ? ` · ${new Date(item.lastMessage.createdAt).toLocaleString()}` : ''}
                      </Typography.Text>
                    </>
                  }
                />
              </List.Item>
            )}
          />
        </Col>
        <Col span={17}>
          {selected ? (
            <Conversation conversationId={selected} refreshKey={refreshKey} cannedReplies={cannedReplies} />
          ) : (
            <Empty description="Choose a conversation" />
          )}
        </Col>
      </Row>
      <CannedRepliesDrawer open={cannedOpen} onClose={() => setCannedOpen(false)} onChanged={loadCanned} />
    </Space>
  );
}
