import { useState } from 'react';
import { Alert, App, Button, Empty, Space, Table, Typography } from 'antd';
import { operatorMay, type Operator, type TeamDifference, type TeamRecompute } from '@custos/contract';
import { recomputeTeam, repairTeam } from '../api/team-operations-api';
import { errorText } from '../../../lib/query/query-client';

/**
 * Team figures check: recomputes every member's own custody, team performance and counts from the
 * orders and the tree and lists what differs from the stored figures; a super admin may then set the
 * stored figures to the recomputed ones (audited).
 */
export function TeamCheckScreen({ operator }: { operator: Operator }) {
  const { message, modal } = App.useApp();
  const mayRecompute = operatorMay(operator.role, 'team.manage');
  const mayRepair = operatorMay(operator.role, 'team.restructure');
  const [result, setResult] = useState<TeamRecompute | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const recompute = () => {
    setBusy(true);
    setError(null);
    recomputeTeam()
      .then(setResult, (reason: unknown) => setError(errorText(reason)))
      .finally(() => setBusy(false));
  };

  const repair = () => {
    modal.confirm({
      title: 'Set the stored team figures to the recomputed ones?',
      content: 'Custody changes wait while it runs. The repair and what differed are recorded in the audit log.',
      okText: 'Repair',
      okButtonProps: { danger: true, 'data-testid': 'team-check-repair-confirm' },
      onOk: () =>
        repairTeam().then(
          (repaired) => {
            void message.success(`${repaired.repaired} members' figures repaired`);
            setResult(repaired.remaining);
          },
          (reason: unknown) => setError(errorText(reason)),
        ),
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Team figures check</Typography.Title>
      <Typography.Paragraph type="secondary">
        The team figures are kept by the database as custody and members change. This recomputes all of them from the custody
        orders and the tree, and lists every stored figure that differs. A super admin may set the stored figures to the
        recomputed ones.
      </Typography.Paragraph>
      {!mayRecompute && <Alert type="info" showIcon title="Read only: your role may not run the check." />}
      <Space>
        <Button type="primary" disabled={!mayRecompute} loading={busy} onClick={recompute} data-testid="team-check-run">
          Recompute and compare
        </Button>
        {mayRepair && result && result.total > 0 && (
          <Button danger onClick={repair} data-testid="team-check-repair">
            Repair
          </Button>
        )}
      </Space>
      {error && <Alert type="error" showIcon title={error} />}
      {result && (
        <Alert
          type={result.total === 0 ? 'success' : 'warning'}
          showIcon
          data-testid="team-check-summary"
          title={
            result.total === 0
              ? `Every stored figure equals the recompute (${new Date(result.checkedAt).toLocaleString()})`
              : `${result.total} stored figures differ from the recompute${result.total > result.differences.length ? ` (first ${result.differences.length} listed)` : ''}`
          }
        />
      )}
      {result && result.total > 0 && (
        <Table<TeamDifference>
          size="small"
          rowKey={(row) => `${row.accountId}:${row.field}`}
          dataSource={result.differences}
          pagination={{ pageSize: 50, showSizeChanger: false, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description="No difference" /> }}
          columns={[
            { title: 'Member', dataIndex: 'email' },
            { title: 'Figure', dataIndex: 'field' },
            { title: 'Stored', dataIndex: 'stored', align: 'right' },
            { title: 'Recomputed', dataIndex: 'computed', align: 'right' },
          ]}
        />
      )}
    </Space>
  );
}
