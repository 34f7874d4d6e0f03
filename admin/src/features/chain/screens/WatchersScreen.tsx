import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Empty, Row, Space, Tag, Typography } from 'antd';
import type { WatcherStatus } from '@custos/contract';
import { errorText } from '../../../lib/query/query-client';
import { chainKeys } from '../api/keys';
import { listWatchers } from '../api/list-watchers';
import { WATCHER_HEALTH, ago, watcherHealth } from '../chain';

/** The panel refreshes itself this often while the page is visible. */
const REFRESH_MS = 10_000;

function When({ value, now }: { value: string | null; now: number }) {
  if (!value) return <>—</>;
  return (
    <span title={value}>
      {new Date(value).toLocaleString()} <Typography.Text type="secondary">({ago(value, now)})</Typography.Text>
    </span>
  );
}

function WatcherCard({ watcher, now }: { watcher: WatcherStatus; now: number }) {
  const health = WATCHER_HEALTH[watcherHealth(watcher)];
  return (
    <Card
      title={watcher.network}
      extra={
        <Tag color={health.colour} data-testid="watcher-health">
          {health.label}
        </Tag>
      }
      data-testid={`watcher-${watcher.network}`}
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label="Enabled">{watcher.enabled ? 'Yes' : 'No (no RPC, token or deposit key)'}</Descriptions.Item>
        <Descriptions.Item label="Head block">{watcher.headBlock ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Scanned to block">{watcher.scannedBlock ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Lag">
          <span data-testid="watcher-lag">{watcher.lagBlocks === null ? '—' : `${watcher.lagBlocks} blocks`}</span>
        </Descriptions.Item>
        <Descriptions.Item label="Last scan">
          <When value={watcher.lastScanAt} now={now} />
        </Descriptions.Item>
        <Descriptions.Item label="Consecutive failures">
          <Typography.Text type={watcher.consecutiveFailures > 0 ? 'danger' : undefined} data-testid="watcher-failures">
            {watcher.consecutiveFailures}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="Deposits confirming">
          <span data-testid="watcher-confirming">{watcher.confirming}</span>
        </Descriptions.Item>
        <Descriptions.Item label="Last error">
          {watcher.lastError ? (
            <Space orientation="vertical" size={0}>
              <Typography.Text type={watcher.consecutiveFailures > 0 ? 'danger' : 'secondary'} data-testid="watcher-error">
                {watcher.lastError}
              </Typography.Text>
              <When value={watcher.lastErrorAt} now={now} />
            </Space>
          ) : (
            '—'
          )}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** Each network's deposit watcher: how far it has scanned, how far behind the head, and its errors. */
export function WatchersScreen() {
  // Refreshes itself while the page is visible; the last answer stays on screen under an error.
  const query = useQuery({ queryKey: chainKeys.watchers, queryFn: listWatchers, refetchInterval: REFRESH_MS });
  const watchers: WatcherStatus[] | undefined = query.data;
  const updatedAt = query.dataUpdatedAt || null;
  const error = query.isError ? errorText(query.error) : null;

  const now = updatedAt ?? Date.now();
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Chain watchers</Typography.Title>
      <Space wrap>
        <Typography.Text type="secondary" data-testid="watchers-updated">
          {updatedAt ? `Updated ${new Date(updatedAt).toLocaleTimeString()}, refreshes every 10 s` : 'Loading…'}
        </Typography.Text>
        <Button onClick={() => void query.refetch()} loading={query.isFetching}>
          Refresh
        </Button>
      </Space>
      {error && <Alert type="error" showIcon title={error} data-testid="watchers-error" />}
      {watchers && watchers.length === 0 && <Empty description="No networks" />}
      <Row gutter={[16, 16]}>
        {watchers?.map((watcher) => (
          <Col key={watcher.network} xs={24} xl={12}>
            <WatcherCard watcher={watcher} now={now} />
          </Col>
        ))}
      </Row>
    </Space>
  );
}
