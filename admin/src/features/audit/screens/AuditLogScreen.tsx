import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Input, Space, Table, Typography } from 'antd';
import { errorText } from '../../../lib/query/query-client';
import { auditKeys, type AuditFilter } from '../api/keys';
import { listAudit } from '../api/list-audit';

const PAGE_SIZE = 50;

function json(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** Who did what, when, with the state before and after; filter by action or by target id. */
export function AuditLogScreen() {
  const [filter, setFilter] = useState<AuditFilter>({ action: '', targetId: '' });
  const [page, setPage] = useState(1);
  // Each filter and page is its own key: a late answer to an older filter never replaces the newer one.
  const audit = useQuery({
    queryKey: auditKeys.list(filter, page),
    queryFn: () => listAudit(filter, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Audit log</Typography.Title>
      {audit.isError && <Alert type="error" showIcon title={errorText(audit.error)} />}
      <Space wrap>
        <Input.Search
          placeholder="Action, e.g. member.freeze"
          allowClear
          onSearch={(value) => {
            setPage(1);
            setFilter((current) => ({ ...current, action: value.trim() }));
          }}
          style={{ width: 280 }}
        />
        <Input.Search
          placeholder="Target id"
          allowClear
          onSearch={(value) => {
            setPage(1);
            setFilter((current) => ({ ...current, targetId: value.trim() }));
          }}
          style={{ width: 340 }}
        />
      </Space>
      <Table
        rowKey="id"
        size="small"
        loading={audit.isFetching}
        dataSource={audit.data?.items ?? []}
        expandable={{
          expandedRowRender: (entry) => (
            <Space align="start" size="large">
              <div>
                <Typography.Text type="secondary">Before</Typography.Text>
                <pre className="mail-body">{json(entry.before)}</pre>
              </div>
              <div>
                <Typography.Text type="secondary">After</Typography.Text>
                <pre className="mail-body">{json(entry.after)}</pre>
              </div>
              <div>
                <Typography.Text type="secondary">Request</Typography.Text>
                <pre className="mail-body">{entry.requestId ?? ''}</pre>
              </div>
            </Space>
          ),
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: audit.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { title: 'Time', dataIndex: 'createdAt', render: (value: string) => new Date(value).toLocaleString() },
          { title: 'Operator', dataIndex: 'operator', render: (value: string | null) => value ?? 'system' },
          { title: 'Action', dataIndex: 'action' },
          { title: 'Target', render: (_: unknown, entry) => [entry.targetType, entry.targetId].filter(Boolean).join(' ') },
          { title: 'Address', dataIndex: 'ip' },
        ]}
      />
    </Space>
  );
}
