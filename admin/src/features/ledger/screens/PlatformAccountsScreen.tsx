import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Drawer, Space, Table, Tag, Typography } from 'antd';
import { ASSETS, type LedgerAccount } from '@custos/contract';
import { ledgerKeys } from '../../../api/keys';
import { Amount } from '../../../components/Amount';
import { errorText } from '../../../lib/query/query-client';
import { PostingsTable } from '../../../components/PostingsTable';
import { listPlatformAccounts } from '../api/list-platform-accounts';
import { PLATFORM_ACCOUNT_LEGEND, groupPlatformAccounts, platformTotals, type PlatformRow } from '../platform';

/** The platform's side of the ledger: one row per account code, one column per asset, with what each is for. */
export function PlatformAccountsScreen() {
  const [opened, setOpened] = useState<LedgerAccount | null>(null);
  const query = useQuery({ queryKey: ledgerKeys.platformAccounts, queryFn: listPlatformAccounts });
  const accounts: LedgerAccount[] | null = query.data ?? null;

  const totals = accounts ? platformTotals(accounts) : null;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Platform accounts</Typography.Title>
      <Typography.Paragraph type="secondary">
        Every balance change is a double-entry journal entry: what a member receives, a platform account gives. Accounts that
        stand for the outside world may go below zero by design; click a balance for its postings.
      </Typography.Paragraph>
      <Button loading={query.isFetching} onClick={() => void query.refetch()} style={{ alignSelf: 'flex-start' }}>
        Refresh
      </Button>
      {query.isError && <Alert type="error" showIcon title={errorText(query.error)} />}
      <Table<PlatformRow>
        rowKey="code"
        size="small"
        loading={query.isFetching}
        pagination={false}
        dataSource={accounts ? groupPlatformAccounts(accounts) : []}
        columns={[
          {
            title: 'Account',
            dataIndex: 'code',
            render: (code: string, row) => (
              <Space>
                <Typography.Text strong>{code}</Typography.Text>
                {row.allowNegative && <Tag>may go negative</Tag>}
              </Space>
            ),
          },
          ...ASSETS.map((asset) => ({
            title: asset,
            key: asset,
            align: 'right' as const,
            render: (_: unknown, row: PlatformRow) => {
              const account = row.byAsset[asset];
              if (!account) return <Typography.Text type="secondary">—</Typography.Text>;
              return (
                <Button type="link" size="small" onClick={() => setOpened(account)} data-testid={`platform-${row.code}-${asset}`}>
                  <Amount value={account.balance} />
                </Button>
              );
            },
          })),
        ]}
        summary={() =>
          totals && (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>
                <Typography.Text type="secondary">Sum (= minus what members hold)</Typography.Text>
              </Table.Summary.Cell>
              {ASSETS.map((asset, index) => (
                <Table.Summary.Cell key={asset} index={index + 1} align="right">
                  <Amount value={totals[asset]} />
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          )
        }
      />
      <Card size="small" title="What each account is">
        <Descriptions column={1} size="small">
          {Object.entries(PLATFORM_ACCOUNT_LEGEND).map(([code, description]) => (
            <Descriptions.Item key={code} label={code}>
              {description}
            </Descriptions.Item>
          ))}
        </Descriptions>
      </Card>
      <Drawer
        size={960}
        open={opened !== null}
        onClose={() => setOpened(null)}
        title={opened ? `${opened.platformCode ?? ''} · ${opened.asset}` : ''}
        destroyOnHidden
      >
        {opened && <PostingsTable key={opened.id} filter={{ ledgerAccountId: opened.id }} />}
      </Drawer>
    </Space>
  );
}
