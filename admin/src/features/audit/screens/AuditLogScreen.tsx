import { useCallback, useEffect, useState } from 'react';
import { App, Input, Space, Table, Typography } from 'antd';
import type { AdminAuditItem } from '@custos/contract';
import { listAudit } from '../api/list-audit';

const PAGE_SIZE = 50;

function json(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** Who did what, when, with the state before and after; filter by action or by target id. */
export function AuditLogScreen() {
  const { message } = App.useApp();
  const [filter, setFilter] = useState({ action: '', targetId: '' });
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ items: AdminAuditItem[]; total: number }>({ items: [], total: 0 });
  const [loading, setLoading] = useState(true);

  const load = useCallback(() => {
    setLoading(true);
    listAudit(filter, page, PAGE_SIZE)
      .then(setData, (error: unknown) => void message.error(error instanceof Error ? error.message : String(error)))
      .finally(() => setLoading(false));
  }, [filter, page, message]);
  useEffect(load, [load]);

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Audit log</Typography.Title>
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
        loading={loading}
        dataSource={data.items}
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
        pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage, showSizeChanger: false }}
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
