import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Input, Space, Table, Tag, Typography } from 'antd';
import { operatorMay, type Operator, type SettlementRun } from '@custos/contract';
import { ledgerKeys } from '../../../api/keys';
import { Amount } from '../../../components/Amount';
import { errorText } from '../../../lib/query/query-client';
import { hostingKeys } from '../api/keys';
import { listSettlementRuns } from '../api/list-settlement-runs';
import { rerunSettlement } from '../api/rerun-settlement';
import { RUN_STATUS_COLOURS, RUN_STATUS_LABELS, canRerun, isIsoDate, runDuration, sortRuns } from '../hosting';

function time(value: string | null): string {
  return value ? new Date(value).toLocaleString() : '—';
}

/** e2e tests find the confirmation's button by this. */
const confirmTestId = { 'data-testid': 'settlement-rerun-confirm' };

/**
 * The daily settlement: one run per platform day (interest, then expiries and renewals), its counts,
 * totals and error. A failed day, or a missed past day, is run again here (hosting.manage, audited);
 * each order is still paid once per day. Days settle strictly in order: the server refuses a day
 * whose previous day has not completed, naming the day to run first.
 */
export function SettlementRunsScreen({ operator }: { operator: Operator }) {
  const { message, modal } = App.useApp();
  const mayRun = operatorMay(operator.role, 'hosting.manage');
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [running, setRunning] = useState<string | null>(null);
  const [day, setDay] = useState('');

  const runsQuery = useQuery({ queryKey: hostingKeys.runs, queryFn: listSettlementRuns, select: sortRuns });
  const runs: SettlementRun[] | null = runsQuery.data ?? null;
  const error = runsQuery.isError ? errorText(runsQuery.error) : null;
  // A run pays interest and settles orders: the runs, the orders and every balance on screen change.
  const refreshAfterRun = () => {
    void queryClient.invalidateQueries({ queryKey: hostingKeys.all });
    void queryClient.invalidateQueries({ queryKey: ledgerKeys.all });
  };

  const rerun = (target: string, failed: SettlementRun | null) => {
    if (!isIsoDate(target)) return;
    setRefusal(null);
    modal.confirm({
      title: `Run the settlement of ${target} again?`,
      content: failed
        ? `The run of ${target} failed${failed.error ? ` (${failed.error})` : ''}. Running it again pays that day's interest and settles its expiries and renewals for the orders not done yet; orders already paid for the day are not paid twice.`
        : `Settles ${target} if it was missed: that day's interest, expiries and renewals. Orders already paid for the day are not paid twice. Days settle in order: a day whose previous day has not completed, a day that has not ended, or one already completed is refused.`,
      okText: 'Run again',
      okButtonProps: confirmTestId,
      onOk: () => {
        setRunning(target);
        return rerunSettlement(target)
          .then(
            (run) => {
              if (run.status === 'failed')
                setRefusal(`The settlement of ${run.day} failed again: ${run.error ?? 'no error given'}`);
              else void message.success(`Settlement of ${run.day}: ${RUN_STATUS_LABELS[run.status].toLowerCase()}`);
              setDay('');
            },
            (reason: unknown) => setRefusal(`Could not run ${target}: ${errorText(reason)}`),
          )
          .finally(() => {
            setRunning(null);
            refreshAfterRun();
          });
      },
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Settlement runs</Typography.Title>
      <Typography.Paragraph type="secondary">
        The settlement runs shortly after midnight platform time for every ended day since the last completed one: each active
        order is paid the day&apos;s interest, then orders that end are closed (principal back to cash) or renewed. Running a day
        again is safe: every order is paid at most once per day.
      </Typography.Paragraph>
      {!mayRun && <Alert type="info" showIcon title="Read only: your role may not run the settlement." />}
      {mayRun && (
        <Card size="small" title="Run a missed past day">
          <Space wrap>
            <Input
              type="date"
              aria-label="Day"
              value={day}
              onChange={(event) => setDay(event.target.value)}
              style={{ width: 180 }}
              data-testid="settlement-day"
            />
            <Button
              type="primary"
              disabled={!isIsoDate(day)}
              loading={running !== null && running === day}
              onClick={() => rerun(day, runs?.find((run) => run.day === day && run.status === 'failed') ?? null)}
              data-testid="settlement-run-day"
            >
              Run this day
            </Button>
          </Space>
        </Card>
      )}
      <Space>
        <Button onClick={() => void runsQuery.refetch()} loading={runsQuery.isFetching}>
          Refresh
        </Button>
      </Space>
      {error && <Alert type="error" showIcon title={error} />}
      {refusal && (
        <Alert type="error" showIcon closable onClose={() => setRefusal(null)} title={refusal} data-testid="settlement-refusal" />
      )}
      <Table<SettlementRun>
        rowKey="day"
        size="small"
        loading={runs === null && !error}
        dataSource={runs ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 31, showSizeChanger: false, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description="No settlement has run yet" /> }}
        onRow={(run) => ({ 'data-testid': 'settlement-row', 'data-day': run.day, 'data-status': run.status }) as object}
        columns={[
          { title: 'Day', dataIndex: 'day', render: (value: string) => <span data-testid="settlement-day-cell">{value}</span> },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (value: SettlementRun['status']) => (
              <Tag color={RUN_STATUS_COLOURS[value]} data-testid="settlement-status" data-status={value}>
                {RUN_STATUS_LABELS[value]}
              </Tag>
            ),
          },
          { title: 'Started', dataIndex: 'startedAt', render: (value: string) => time(value) },
          { title: 'Finished', dataIndex: 'finishedAt', render: (value: string | null) => time(value) },
          { title: 'Took', render: (_: unknown, run) => runDuration(run) },
          {
            title: 'Orders paid',
            dataIndex: 'ordersAccrued',
            align: 'right',
            render: (value: number) => <span data-testid="settlement-accrued">{value}</span>,
          },
          {
            title: 'Interest (USDT)',
            dataIndex: 'interestTotal',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="settlement-interest" />,
          },
          {
            title: 'Expired',
            dataIndex: 'ordersExpired',
            align: 'right',
            render: (value: number) => <span data-testid="settlement-expired">{value}</span>,
          },
          {
            title: 'Renewed',
            dataIndex: 'ordersRenewed',
            align: 'right',
            render: (value: number) => <span data-testid="settlement-renewed">{value}</span>,
          },
          {
            title: 'Machines mined',
            dataIndex: 'machinesMined',
            align: 'right',
            render: (value: number) => <span data-testid="settlement-machines">{value}</span>,
          },
          {
            title: 'Output (RAB)',
            dataIndex: 'outputTotal',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="settlement-output" />,
          },
          {
            title: 'Dividend shares',
            dataIndex: 'dividendShares',
            align: 'right',
            render: (value: number) => <span data-testid="settlement-dividend-shares">{value}</span>,
          },
          {
            title: 'Dividend (USDT)',
            dataIndex: 'dividendTotal',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="settlement-dividend" />,
          },
          {
            title: 'Error',
            dataIndex: 'error',
            render: (value: string | null) =>
              value ? (
                <Typography.Text type="danger" style={{ maxWidth: 320 }} data-testid="settlement-error">
                  {value}
                </Typography.Text>
              ) : (
                '—'
              ),
          },
          ...(mayRun
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, run: SettlementRun) =>
                    canRerun(run) && (
                      <Button
                        size="small"
                        type="primary"
                        loading={running === run.day}
                        onClick={() => rerun(run.day, run)}
                        data-testid="settlement-rerun"
                      >
                        Run again
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
    </Space>
  );
}
