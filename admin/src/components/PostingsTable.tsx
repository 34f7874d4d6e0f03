import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Table, Tag, Typography } from 'antd';
import { ledgerKeys } from '../api/keys';
import { listPostings, type PostingsFilter } from '../api/list-postings';
import { errorText } from '../lib/query/query-client';
import { Amount } from './Amount';

const PAGE_SIZE = 20;

/**
 * Journal lines of a member account or of one ledger account, newest first, paged by the server.
 * Give it a `key` that changes with the filter so a new filter starts on page 1.
 */
export function PostingsTable({ filter, title }: { filter: PostingsFilter; title?: string }) {
  const [page, setPage] = useState(1);
  const postings = useQuery({
    queryKey: ledgerKeys.postings(filter, page),
    queryFn: () => listPostings(filter, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  if (postings.isError) return <Alert type="error" showIcon title={errorText(postings.error)} />;
  return (
    <Table
      size="small"
      rowKey="id"
      loading={postings.isFetching}
      dataSource={postings.data?.items ?? []}
      title={title ? () => title : undefined}
      data-testid="postings"
      scroll={{ x: 'max-content' }}
      pagination={{
        current: page,
        pageSize: PAGE_SIZE,
        total: postings.data?.total ?? 0,
        onChange: setPage,
        showSizeChanger: false,
        showTotal: (total) => `${total} postings`,
      }}
      columns={[
        { title: 'Time', dataIndex: 'createdAt', render: (value: string) => new Date(value).toLocaleString() },
        { title: 'Type', dataIndex: 'type', render: (value: string) => <Tag>{value}</Tag> },
        { title: 'Asset', dataIndex: 'asset' },
        { title: 'Purpose', dataIndex: 'purpose' },
        { title: 'Amount', dataIndex: 'amount', align: 'right', render: (value: string) => <Amount value={value} signed /> },
        {
          title: 'Balance after',
          dataIndex: 'balanceAfter',
          align: 'right',
          render: (value: string) => <Amount value={value} />,
        },
        {
          title: 'Entry',
          render: (_: unknown, posting) => (
            <Typography.Text copyable={{ text: posting.entryId }} title={posting.entryId}>
              {posting.entryKind} · {posting.entryId.slice(0, 8)}
            </Typography.Text>
          ),
        },
        {
          title: 'Reference',
          render: (_: unknown, posting) =>
            posting.referenceType ? (
              <Typography.Text copyable={posting.referenceId ? { text: posting.referenceId } : false}>
                {posting.referenceType}
                {posting.referenceId ? ` · ${posting.referenceId.slice(0, 8)}` : ''}
              </Typography.Text>
            ) : (
              '—'
            ),
        },
        {
          title: 'Idempotency key',
          dataIndex: 'idempotencyKey',
          render: (value: string) => (
            <Typography.Text type="secondary" copyable={{ text: value }} ellipsis style={{ maxWidth: 200 }} title={value}>
              {value}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}
