import { useCallback, useEffect, useState } from 'react';
import { App, Table, Tag, Typography } from 'antd';
import type { z } from 'zod';
import type { adminPostingSchema } from '@custos/contract';
import { listPostings, type PostingsFilter } from '../api/list-postings';
import { Amount } from './Amount';

type Posting = z.infer<typeof adminPostingSchema>;

const PAGE_SIZE = 20;

/**
 * Journal lines of a member account or of one ledger account, newest first, paged by the server.
 * Give it a `key` that changes with the filter so a new filter starts on page 1.
 */
export function PostingsTable({ filter, title }: { filter: PostingsFilter; title?: string }) {
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ items: Posting[]; total: number }>({ items: [], total: 0 });
  const [loading, setLoading] = useState(true);
  const accountId = 'accountId' in filter ? filter.accountId : null;
  const ledgerAccountId = 'ledgerAccountId' in filter ? filter.ledgerAccountId : null;

  const load = useCallback(() => {
    setLoading(true);
    listPostings(accountId !== null ? { accountId } : { ledgerAccountId: ledgerAccountId ?? '' }, page, PAGE_SIZE)
      .then(setData, (error: unknown) => void message.error(error instanceof Error ? error.message : String(error)))
      .finally(() => setLoading(false));
  }, [accountId, ledgerAccountId, page, message]);
  useEffect(load, [load]);

  return (
    <Table
      size="small"
      rowKey="id"
      loading={loading}
      dataSource={data.items}
      title={title ? () => title : undefined}
      data-testid="postings"
      scroll={{ x: 'max-content' }}
      pagination={{
        current: page,
        pageSize: PAGE_SIZE,
        total: data.total,
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
