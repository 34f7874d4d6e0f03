import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { errorText } from '../../../lib/query/query-client';
import { getHealth } from '../api/get-health';
import { getPlatform } from '../api/get-platform';
import { overviewKeys } from '../api/keys';

/** Platform status: is the server healthy, on which database, with which settings and app version. */
export function OverviewScreen() {
  const healthQuery = useQuery({ queryKey: overviewKeys.health, queryFn: getHealth });
  const platformQuery = useQuery({ queryKey: overviewKeys.platform, queryFn: getPlatform });
  const health = healthQuery.data;
  const platform = platformQuery.data;
  const failure = healthQuery.error ?? platformQuery.error;
  const error = failure ? errorText(failure) : null;

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Overview</Typography.Title>
      {error && <Alert type="error" title={error} showIcon />}
      <Card title="Server" loading={!health && !error}>
        {health && (
          <Descriptions column={1} size="small">
            <Descriptions.Item label="Status">
              <Tag color={health.status === 'ok' ? 'green' : 'orange'} data-testid="health-status">
                {health.status}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Database">
              {health.database === 'pglite' ? 'Embedded PGlite' : 'PostgreSQL'}
            </Descriptions.Item>
            <Descriptions.Item label="Uptime">{health.uptimeS} s</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Card title="Platform" loading={!platform && !error}>
        {platform && (
          <Descriptions column={1} size="small">
            <Descriptions.Item label="Site name">{platform.config.siteName}</Descriptions.Item>
            <Descriptions.Item label="Time zone">{platform.config.timeZone}</Descriptions.Item>
            <Descriptions.Item label="Default language">{platform.config.defaultLocale}</Descriptions.Item>
            <Descriptions.Item label="Server time">{platform.config.serverTime}</Descriptions.Item>
            <Descriptions.Item label="App version">
              {platform.appVersion.version} ({platform.appVersion.version_code}), hot {platform.appVersion.hot_version_code}
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
    </Space>
  );
}
