import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Drawer, Image, Input, Modal, Segmented, Space, Table, Tag, Typography } from 'antd';
import type { AdminIdentityItem } from '@custos/contract';
import { fetchIdentityImage } from '../api/fetch-identity-image';
import { listIdentity } from '../api/list-identity';
import { approveIdentity, failIdentity } from '../api/review-identity';
import { errorText } from '../../../lib/query/query-client';
import { identityKeys } from '../api/keys';

const PAGE_SIZE = 20;
type Status = 'pending' | 'approved' | 'failed';

function DocumentImage({ uploadId, label }: { uploadId: string; label: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    fetchIdentityImage(uploadId).then(
      (created) => {
        objectUrl = created;
        setUrl(created);
      },
      (reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason)),
    );
    return () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [uploadId]);
  return (
    <Space direction="vertical" size={4}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      {url ? (
        <Image src={url} width={160} alt={label} data-testid="identity-image" />
      ) : (
        <Typography.Text type="danger">{error ?? '…'}</Typography.Text>
      )}
    </Space>
  );
}

/** Real-name review: the queue (oldest first), the documents, approve or fail with a reason. */
export function IdentityReviewScreen() {
  const { message } = App.useApp();
  const [status, setStatus] = useState<Status>('pending');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<AdminIdentityItem | null>(null);
  const [failOpen, setFailOpen] = useState(false);
  const [reason, setReason] = useState('');

  const reviews = useQuery({
    queryKey: identityKeys.list(status, page),
    queryFn: () => listIdentity(status, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const queryClient = useQueryClient();

  const decided = (text: string) => {
    void message.success(text);
    setSelected(null);
    setFailOpen(false);
    setReason('');
    void queryClient.invalidateQueries({ queryKey: identityKeys.all });
  };
  const failed = (error: unknown) => void message.error(error instanceof Error ? error.message : String(error));

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Real-name review</Typography.Title>
      {reviews.isError && <Alert type="error" showIcon title={errorText(reviews.error)} />}
      <Segmented<Status>
        options={[
          { label: 'Waiting', value: 'pending' },
          { label: 'Approved', value: 'approved' },
          { label: 'Failed', value: 'failed' },
        ]}
        value={status}
        onChange={(value) => {
          setPage(1);
          setStatus(value);
        }}
      />
      <Table
        rowKey="id"
        loading={reviews.isFetching}
        dataSource={reviews.data?.items ?? []}
        onRow={(record) => ({ onClick: () => setSelected(record), style: { cursor: 'pointer' } })}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: reviews.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { title: 'Submitted', dataIndex: 'submittedAt', render: (value: string) => new Date(value).toLocaleString() },
          { title: 'Member', dataIndex: 'email' },
          { title: 'Real name', dataIndex: 'realName' },
          { title: 'Document', dataIndex: 'documentType' },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (value: Status) => <Tag color={{ pending: 'orange', approved: 'green', failed: 'red' }[value]}>{value}</Tag>,
          },
        ]}
      />
      <Drawer width={640} open={selected !== null} onClose={() => setSelected(null)} title="Real-name submission" destroyOnHidden>
        {selected && (
          <Space direction="vertical" size="large" style={{ width: '100%' }}>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label="Member">{selected.email}</Descriptions.Item>
              <Descriptions.Item label="Real name">{selected.realName}</Descriptions.Item>
              <Descriptions.Item label="Document">{selected.documentType}</Descriptions.Item>
              <Descriptions.Item label="Number">{selected.idNumber}</Descriptions.Item>
              <Descriptions.Item label="Status">{selected.status}</Descriptions.Item>
              {selected.failReason && <Descriptions.Item label="Reason">{selected.failReason}</Descriptions.Item>}
            </Descriptions>
            <Space wrap>
              <DocumentImage uploadId={selected.frontImageId} label="Front" />
              <DocumentImage uploadId={selected.backImageId} label="Back" />
              <DocumentImage uploadId={selected.selfieImageId} label="Selfie" />
            </Space>
            {selected.status === 'pending' && (
              <Space>
                <Button type="primary" onClick={() => void approveIdentity(selected.id).then(() => decided('Approved'), failed)}>
                  Approve
                </Button>
                <Button danger onClick={() => setFailOpen(true)}>
                  Fail
                </Button>
              </Space>
            )}
          </Space>
        )}
      </Drawer>
      <Modal
        title="Fail the submission"
        open={failOpen}
        okText="Fail"
        okButtonProps={{ danger: true, disabled: reason.trim() === '' }}
        onCancel={() => setFailOpen(false)}
        onOk={() => {
          if (selected) void failIdentity(selected.id, reason.trim()).then(() => decided('Failed'), failed);
        }}
      >
        <Input.TextArea
          placeholder="Reason (shown to the member)"
          maxLength={140}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          data-testid="fail-reason"
        />
      </Modal>
    </Space>
  );
}
