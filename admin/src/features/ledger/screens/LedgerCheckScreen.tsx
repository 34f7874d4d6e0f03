import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Space, Statistic, Table, Tag, Typography } from 'antd';
import type { LedgerReport } from '@custos/contract';
import { ledgerKeys } from '../../../api/keys';
import { errorText } from '../../../lib/query/query-client';
import { verifyLedger } from '../api/verify-ledger';

/** The ledger invariant checker: balanced entries, balances matching their postings, every asset summing to zero. */
export function LedgerCheckScreen() {
  // A whole-journal scan: run on opening and on request, not on every return to the window.
  const check = useQuery({ queryKey: ledgerKeys.check, queryFn: verifyLedger, refetchOnWindowFocus: false });
  const report: LedgerReport | undefined = check.data;
  const error = check.isError ? errorText(check.error) : null;
  const run = () => void check.refetch();
  const running = check.isFetching;

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Invariant report</Typography.Title>
      <Typography.Paragraph type="secondary">
        Checks the whole journal: every entry balances and has postings, every balance equals the sum of its postings and each
        posting&apos;s balance-after its running sum, no balance that must not be negative is, held balances match the pending
        holds, idempotency keys are used once, and each asset sums to zero across all accounts.
      </Typography.Paragraph>
      <Button type="primary" onClick={run} loading={running} style={{ alignSelf: 'flex-start' }}>
        Run the check
      </Button>
      {error && <Alert type="error" showIcon title={error} />}
      {report && (
        <>
          <Card size="small">
            <Space size="large" wrap>
              <Tag
                color={report.clean ? 'green' : 'red'}
                data-testid="ledger-status"
                style={{ fontSize: 16, padding: '4px 12px' }}
              >
                {report.clean ? 'clean' : 'problems found'}
              </Tag>
              <Statistic title="Entries" value={report.counts.entries} />
              <Statistic title="Postings" value={report.counts.postings} />
              <Statistic title="Accounts" value={report.counts.accounts} />
            </Space>
            <Descriptions size="small" column={1} style={{ marginTop: 16 }}>
              <Descriptions.Item label="Checked at">{new Date(report.checkedAt).toLocaleString()}</Descriptions.Item>
            </Descriptions>
          </Card>
          <Table
            size="small"
            rowKey="asset"
            pagination={false}
            title={() => 'Sum of every balance, per asset (always zero)'}
            dataSource={report.totals}
            columns={[
              { title: 'Asset', dataIndex: 'asset' },
              {
                title: 'Sum',
                dataIndex: 'sum',
                align: 'right',
                render: (value: string, total) => (
                  <Typography.Text className="amount" data-testid={`ledger-total-${total.asset}`}>
                    {value}
                  </Typography.Text>
                ),
              },
            ]}
          />
          <Table
            size="small"
            rowKey={(problem) => `${problem.check}:${problem.detail}`}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            title={() => `Problems (${report.problems.length})`}
            locale={{ emptyText: 'No problems' }}
            dataSource={report.problems}
            columns={[
              { title: 'Check', dataIndex: 'check', render: (value: string) => <Tag color="red">{value}</Tag> },
              {
                title: 'Detail',
                dataIndex: 'detail',
                render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
              },
            ]}
          />
        </>
      )}
    </Space>
  );
}
