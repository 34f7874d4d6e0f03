import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Input, Modal, Segmented, Space, Table, Tag, Typography } from 'antd';
import { operatorMay, type Adjustment, type Operator } from '@custos/contract';
import { ledgerKeys } from '../../../api/keys';
import { Amount } from '../../../components/Amount';
import { errorText } from '../../../lib/query/query-client';
import { decideAdjustment } from '../api/decide-adjustment';
import { listAdjustments, type AdjustmentStatus } from '../api/list-adjustments';

const PAGE_SIZE = 20;
const NOTE_MAX_LENGTH = 140;

type StatusFilter = AdjustmentStatus | 'all';
type Decision = 'approve' | 'reject';

const STATUS_COLOURS: Record<AdjustmentStatus, string> = { proposed: 'gold', approved: 'green', rejected: 'default' };

function DecisionModal({
  pending,
  onClose,
  onDecided,
  onRefused,
}: {
  pending: { adjustment: Adjustment; decision: Decision } | null;
  onClose: () => void;
  onDecided: (adjustment: Adjustment) => void;
  onRefused: (text: string) => void;
}) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  // Keeps showing the last adjustment while the dialog animates closed.
  const [shown, setShown] = useState(pending);
  if (pending && pending !== shown) setShown(pending);
  const approving = shown?.decision === 'approve';
  const adjustment = shown?.adjustment;
  return (
    <Modal
      title={approving ? 'Approve adjustment' : 'Reject adjustment'}
      open={pending !== null}
      okText={approving ? 'Approve' : 'Reject'}
      okButtonProps={{ danger: !approving }}
      confirmLoading={busy}
      destroyOnHidden
      afterClose={() => setNote('')}
      onCancel={onClose}
      onOk={() => {
        if (!pending || busy) return;
        setBusy(true);
        decideAdjustment(pending.adjustment.id, pending.decision, note.trim())
          .then(onDecided, (reason: unknown) => onRefused(errorText(reason)))
          .finally(() => setBusy(false));
      }}
    >
      {adjustment && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph>
            {approving
              ? 'Approving posts the entry at once: the member’s available balance changes against the platform’s adjustments account.'
              : 'Rejecting closes the proposal; nothing is posted.'}
          </Typography.Paragraph>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Member">
              {adjustment.memberEmail} · {adjustment.accountNickname}
            </Descriptions.Item>
            <Descriptions.Item label={adjustment.direction === 'credit' ? 'Credit' : 'Debit'}>
              {adjustment.amount} {adjustment.asset}
            </Descriptions.Item>
            <Descriptions.Item label="Reason">{adjustment.reason}</Descriptions.Item>
            <Descriptions.Item label="Proposed by">{adjustment.proposedBy}</Descriptions.Item>
          </Descriptions>
          <Input.TextArea
            placeholder="Note (optional, kept with the decision)"
            maxLength={NOTE_MAX_LENGTH}
            showCount
            rows={2}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            data-testid="decision-note"
          />
        </Space>
      )}
    </Modal>
  );
}

/** Manual credits and debits: four eyes, so the proposer never decides their own proposal. */
export function AdjustmentsScreen({ operator }: { operator: Operator }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StatusFilter>('proposed');
  const [page, setPage] = useState(1);
  const [pending, setPending] = useState<{ adjustment: Adjustment; decision: Decision } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const mayDecide = operatorMay(operator.role, 'ledger.approve');

  const statusOrNull = status === 'all' ? null : status;
  const adjustments = useQuery({
    queryKey: ledgerKeys.adjustments(statusOrNull, page),
    queryFn: () => listAdjustments(statusOrNull, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  // A decision (or a refusal: someone else may have decided) changes the list and the member's balances.
  const refreshLedger = () => void queryClient.invalidateQueries({ queryKey: ledgerKeys.all });

  const open = (adjustment: Adjustment, decision: Decision) => {
    setRefusal(null);
    setPending({ adjustment, decision });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Adjustments</Typography.Title>
      <Typography.Paragraph type="secondary">
        Manual credits and debits of members&apos; available balances. One operator proposes (on the member&apos;s page), another
        approves or rejects; a debit above the balance is refused and stays proposed.
      </Typography.Paragraph>
      <Space wrap>
        <Segmented<StatusFilter>
          data-testid="status-filter"
          options={[
            { label: 'Proposed', value: 'proposed' },
            { label: 'Approved', value: 'approved' },
            { label: 'Rejected', value: 'rejected' },
            { label: 'All', value: 'all' },
          ]}
          value={status}
          onChange={(value) => {
            setPage(1);
            setStatus(value);
          }}
        />
        <Button loading={adjustments.isFetching} onClick={() => void adjustments.refetch()}>
          Refresh
        </Button>
      </Space>
      {adjustments.isError && <Alert type="error" showIcon title={errorText(adjustments.error)} />}
      {refusal && (
        <Alert type="error" showIcon closable onClose={() => setRefusal(null)} title={refusal} data-testid="decision-error" />
      )}
      <Table<Adjustment>
        rowKey="id"
        size="small"
        loading={adjustments.isFetching}
        dataSource={adjustments.data?.items ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: adjustments.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          {
            title: 'Proposed',
            render: (_: unknown, adjustment) => (
              <Space orientation="vertical" size={0}>
                <span>{new Date(adjustment.proposedAt).toLocaleString()}</span>
                <Typography.Text type="secondary">by {adjustment.proposedBy}</Typography.Text>
              </Space>
            ),
          },
          {
            title: 'Member · account',
            render: (_: unknown, adjustment) => (
              <Space orientation="vertical" size={0}>
                <span>{adjustment.memberEmail}</span>
                <Typography.Text type="secondary">{adjustment.accountNickname}</Typography.Text>
              </Space>
            ),
          },
          {
            title: 'Adjustment',
            render: (_: unknown, adjustment) => (
              <Space size={4}>
                <Tag color={adjustment.direction === 'credit' ? 'green' : 'red'}>{adjustment.direction}</Tag>
                <Amount value={adjustment.amount} />
                <span>{adjustment.asset}</span>
              </Space>
            ),
          },
          { title: 'Reason', dataIndex: 'reason', width: 220 },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (value: AdjustmentStatus) => (
              <Tag color={STATUS_COLOURS[value]} data-testid="adjustment-status">
                {value}
              </Tag>
            ),
          },
          {
            title: 'Decision',
            render: (_: unknown, adjustment) =>
              adjustment.decidedBy ? (
                <Space orientation="vertical" size={0}>
                  <span>
                    by {adjustment.decidedBy}
                    {adjustment.decidedAt ? `, ${new Date(adjustment.decidedAt).toLocaleString()}` : ''}
                  </span>
                  {adjustment.decisionNote && <Typography.Text type="secondary">“{adjustment.decisionNote}”</Typography.Text>}
                  {adjustment.entryId && (
                    <Typography.Text type="secondary" copyable={{ text: adjustment.entryId }} title={adjustment.entryId}>
                      entry {adjustment.entryId.slice(0, 8)}
                    </Typography.Text>
                  )}
                </Space>
              ) : (
                '—'
              ),
          },
          ...(mayDecide
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, adjustment: Adjustment) => {
                    if (adjustment.status !== 'proposed') return null;
                    if (adjustment.proposedBy === operator.username) {
                      return (
                        <Typography.Text type="secondary" data-testid="own-proposal">
                          Your proposal: another operator decides
                        </Typography.Text>
                      );
                    }
                    return (
                      <Space>
                        <Button size="small" type="primary" onClick={() => open(adjustment, 'approve')}>
                          Approve
                        </Button>
                        <Button size="small" danger onClick={() => open(adjustment, 'reject')}>
                          Reject
                        </Button>
                      </Space>
                    );
                  },
                },
              ]
            : []),
        ]}
      />
      <DecisionModal
        pending={pending}
        onClose={() => setPending(null)}
        onDecided={(decided) => {
          setPending(null);
          void message.success(`Adjustment ${decided.status}`);
          refreshLedger();
        }}
        onRefused={(text) => {
          const verb = pending?.decision === 'approve' ? 'approve' : 'reject';
          setPending(null);
          setRefusal(`Could not ${verb}: ${text}`);
          refreshLedger();
        }}
      />
    </Space>
  );
}
