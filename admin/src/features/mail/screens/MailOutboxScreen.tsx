import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Input, Space, Table, Tag, Typography } from 'antd';
import type { AdminMailItem } from '@custos/contract';
import { errorText } from '../../../lib/query/query-client';
import { mailKeys } from '../api/keys';
import { listMail } from '../api/list-mail';

const PAGE_SIZE = 20;
const STATUS_COLOURS: Record<AdminMailItem['status'], string> = {
  pending: 'blue',
  sent: 'green',
  logged: 'default',
  failed: 'red',
};

/**
 * Every mail the platform sent (or, without SMTP, only logged), with its delivery state. Codes are
 * masked: only the recipient gets them. Each page read is recorded in the audit log.
 */
export function MailOutboxScreen() {
  const [recipient, setRecipient] = useState('');
  const [page, setPage] = useState(1);
  const mail = useQuery({
    queryKey: mailKeys.list(recipient, page),
    queryFn: () => listMail(recipient, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    // Each read is audited: only opening a page reads it, not coming back to the window.
    refetchOnWindowFocus: false,
  });

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Mail outbox</Typography.Title>
      <Alert
        type="info"
        showIcon
        title="Codes in mails are masked (••••••): only the member receives them. Every page you open here is recorded in the audit log."
        data-testid="mail-outbox-notice"
      />
      {mail.isError && <Alert type="error" showIcon title={errorText(mail.error)} />}
      <Input.Search
        placeholder="Recipient e-mail"
        allowClear
        enterButton="Filter"
        onSearch={(value) => {
          setPage(1);
          setRecipient(value.trim());
        }}
        style={{ maxWidth: 480 }}
      />
      <Table
        rowKey="id"
        loading={mail.isFetching}
        dataSource={mail.data?.items ?? []}
        expandable={{ expandedRowRender: (mail) => <pre className="mail-body">{mail.body}</pre> }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: mail.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { title: 'Created', dataIndex: 'createdAt', render: (value: string) => new Date(value).toLocaleString() },
          { title: 'Recipient', dataIndex: 'recipient' },
          { title: 'Subject', dataIndex: 'subject' },
          { title: 'Language', dataIndex: 'locale' },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (status: AdminMailItem['status'], mail) => (
              <Tag color={STATUS_COLOURS[status]} title={mail.lastError ?? undefined}>
                {status}
                {mail.attempts > 1 ? ` (${mail.attempts} tries)` : ''}
              </Tag>
            ),
          },
        ]}
      />
    </Space>
  );
}
