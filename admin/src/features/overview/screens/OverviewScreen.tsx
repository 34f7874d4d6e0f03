import { useEffect, useState } from 'react';
import { Alert, Card, Descriptions, Space, Tag, Typography } from 'antd';
import type { AppVersion, CommonConfig } from '@custos/contract';
import { getHealth } from '../api/get-health';
import { getPlatform } from '../api/get-platform';

type Health = Awaited<ReturnType<typeof getHealth>>;

/** Platform status: is the server healthy, on which database, with which settings and app version. */
export function OverviewScreen() {
  const [health, setHealth] = useState<Health | null>(null);
  const [platform, setPlatform] = useState<{ config: CommonConfig; appVersion: AppVersion } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const fail = (reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason));
    getHealth().then(setHealth, fail);
    getPlatform().then(setPlatform, fail);
  }, []);

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
