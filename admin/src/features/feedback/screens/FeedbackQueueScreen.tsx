import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Drawer, Image, Input, Segmented, Space, Table, Tag, Typography } from 'antd';
import { FEEDBACK_REPLY_MAX_LENGTH, type AdminFeedbackItem, type FeedbackStatus } from '@custos/contract';
import { fetchFeedbackImage, listFeedback, replyFeedback } from '../api/feedback';
import { errorText } from '../../../lib/query/query-client';
import { feedbackKeys } from '../api/keys';

const PAGE_SIZE = 20;

function FeedbackImage({ feedbackId, uploadId }: { feedbackId: string; uploadId: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    fetchFeedbackImage(feedbackId, uploadId).then(
      (created) => {
        objectUrl = created;
        setUrl(created);
      },
      (reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason)),
    );
    return () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [feedbackId, uploadId]);
  return url ? (
    <Image src={url} width={160} alt="Feedback image" data-testid="feedback-image" />
  ) : (
    <Typography.Text type="danger">{error ?? '…'}</Typography.Text>
  );
}

/** Feedback queue: awaiting replies oldest first; one reply each (audited, the member is told live). */
export function FeedbackQueueScreen() {
  const { message } = App.useApp();
  const [status, setStatus] = useState<FeedbackStatus>('awaiting_reply');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<AdminFeedbackItem | null>(null);
  const [reply, setReply] = useState('');
  const [sending, setSending] = useState(false);

  const feedback = useQuery({
    queryKey: feedbackKeys.list(status, page),
    queryFn: () => listFeedback(status, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const queryClient = useQueryClient();

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Feedback</Typography.Title>
      {feedback.isError && <Alert type="error" showIcon title={errorText(feedback.error)} />}
      <Segmented<FeedbackStatus>
        options={[
          { label: 'Awaiting reply', value: 'awaiting_reply' },
          { label: 'Replied', value: 'replied' },
        ]}
        value={status}
        onChange={(value) => {
          setPage(1);
          setStatus(value);
        }}
      />
      <Table
        rowKey="id"
        loading={feedback.isFetching}
        dataSource={feedback.data?.items ?? []}
        onRow={(record) => ({
          onClick: () => {
            setReply('');
            setSelected(record);
          },
          style: { cursor: 'pointer' },
          'data-testid': 'feedback-row',
        })}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: feedback.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { title: 'Sent', dataIndex: 'createdAt', render: (value: string) => new Date(value).toLocaleString() },
          { title: 'Member', dataIndex: 'email' },
          { title: 'Title', dataIndex: 'title' },
          { title: 'Images', dataIndex: 'imageIds', render: (ids: string[]) => ids.length },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (value: FeedbackStatus) => (
              <Tag color={value === 'replied' ? 'green' : 'orange'}>{value === 'replied' ? 'Replied' : 'Awaiting reply'}</Tag>
            ),
          },
        ]}
      />
      <Drawer width={640} open={selected !== null} onClose={() => setSelected(null)} title="Feedback" destroyOnHidden>
        {selected && (
          <Space direction="vertical" size="large" style={{ width: '100%' }}>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label="Member">{selected.email}</Descriptions.Item>
              <Descriptions.Item label="Title">{selected.title}</Descriptions.Item>
              <Descriptions.Item label="Content">
                <span style={{ whiteSpace: 'pre-wrap' }} data-testid="feedback-content">
                  {selected.content}
                </span>
              </Descriptions.Item>
              {selected.orderNo && <Descriptions.Item label="Order number">{selected.orderNo}</Descriptions.Item>}
              <Descriptions.Item label="Sent">{new Date(selected.createdAt).toLocaleString()}</Descriptions.Item>
              {selected.reply && <Descriptions.Item label="Reply">{selected.reply}</Descriptions.Item>}
            </Descriptions>
            {selected.imageIds.length > 0 && (
              <Space wrap>
                {selected.imageIds.map((uploadId) => (
                  <FeedbackImage key={uploadId} feedbackId={selected.id} uploadId={uploadId} />
                ))}
              </Space>
            )}
            {selected.status === 'awaiting_reply' && (
              <Space direction="vertical" style={{ width: '100%' }}>
                <Input.TextArea
                  placeholder="Reply (shown to the member)"
                  maxLength={FEEDBACK_REPLY_MAX_LENGTH}
                  showCount
                  rows={4}
                  value={reply}
                  onChange={(event) => setReply(event.target.value)}
                  data-testid="feedback-reply"
                />
                <Button
                  type="primary"
                  loading={sending}
                  disabled={reply.trim() === ''}
                  onClick={() => {
                    setSending(true);
                    replyFeedback(selected.id, reply.trim())
                      .then(
                        () => {
                          void message.success('Reply sent');
                          setSelected(null);
                          void queryClient.invalidateQueries({ queryKey: feedbackKeys.all });
                        },
                        (error: unknown) => void message.error(error instanceof Error ? error.message : String(error)),
                      )
                      .finally(() => setSending(false));
                  }}
                >
                  Send reply
                </Button>
              </Space>
            )}
          </Space>
        )}
      </Drawer>
    </Space>
  );
}
