import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Input, Modal, Segmented, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { WITHDRAWAL_STATUSES, type AdminWithdrawal, type Network, type Operator, type WithdrawalStatus } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { approveWithdrawal } from '../api/approve-withdrawal';
import { listHotWallets } from '../api/list-hot-wallets';
import { listWithdrawals, type WithdrawalFilter } from '../api/list-withdrawals';
import { markWithdrawalPaid } from '../api/mark-withdrawal-paid';
import { refundWithdrawal } from '../api/refund-withdrawal';
import { rejectWithdrawal } from '../api/reject-withdrawal';
import { retryWithdrawal } from '../api/retry-withdrawal';
import {
  ACTION_TEXT,
  WITHDRAWAL_STATUS_COLOURS,
  WITHDRAWAL_STATUS_LABELS,
  actionExplanation,
  actionInputProblem,
  addressUrl,
  riskHint,
  txUrl,
  withdrawalActions,
  type WithdrawalAction,
} from '../withdrawals';
import { errorText } from '../../../lib/query/query-client';
import { withdrawalKeys } from '../api/keys';
import { ledgerKeys } from '../../../api/keys';

const PAGE_SIZE = 20;
const ALL = 'all';

type StatusFilter = WithdrawalStatus | typeof ALL;
type Pending = { withdrawal: AdminWithdrawal; action: WithdrawalAction };

function time(value: string | null): string {
  return value ? new Date(value).toLocaleString() : '—';
}

function short(text: string, head = 8, tail = 6): string {
  return text.length <= head + tail + 1 ? text : `${text.slice(0, head)}…${text.slice(-tail)}`;
}

function send(pending: Pending, text: string): Promise<AdminWithdrawal> {
  const { withdrawal, action } = pending;
  switch (action) {
    case 'approve':
      return approveWithdrawal(withdrawal.id);
    case 'reject':
      return rejectWithdrawal(withdrawal.id, text.trim());
    case 'markPaid':
      return markWithdrawalPaid(withdrawal.id, text.trim());
    case 'retry':
      return retryWithdrawal(withdrawal.id);
    case 'refund':
      return refundWithdrawal(withdrawal.id, text.trim());
  }
}

function Destination({ withdrawal }: { withdrawal: AdminWithdrawal }) {
  const network = withdrawal.network;
  return (
    <Space orientation="vertical" size={0}>
      <span>
        <Tag>{network ?? withdrawal.methodType}</Tag>
      </span>
      {withdrawal.methodType === 'crypto' && network ? (
        <Typography.Text copyable={{ text: withdrawal.destination }}>
          <a
            href={addressUrl(network, withdrawal.destination)}
            target="_blank"
            rel="noopener noreferrer"
            title={withdrawal.destination}
            data-testid="withdrawal-destination"
          >
            {short(withdrawal.destination)}
          </a>
        </Typography.Text>
      ) : (
        <Typography.Text data-testid="withdrawal-destination">{withdrawal.destination}</Typography.Text>
      )}
    </Space>
  );
}

function WithdrawalDetails({ withdrawal }: { withdrawal: AdminWithdrawal }) {
  return (
    <Descriptions column={2} size="small" bordered>
      <Descriptions.Item label="Withdrawal id">
        <Typography.Text copyable>{withdrawal.id}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Destination">
        <Typography.Text copyable>{withdrawal.destination}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Member id">
        <Typography.Text copyable>{withdrawal.memberId}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Account id">
        <Typography.Text copyable>{withdrawal.accountId}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Requested">{time(withdrawal.createdAt)}</Descriptions.Item>
      <Descriptions.Item label="Decided">
        {time(withdrawal.decidedAt)}
        {withdrawal.decidedBy ? ` by ${withdrawal.decidedBy}` : ''}
      </Descriptions.Item>
      <Descriptions.Item label="Completed">{time(withdrawal.completedAt)}</Descriptions.Item>
      <Descriptions.Item label="Transaction">
        {withdrawal.txHash && withdrawal.network ? (
          <Typography.Text copyable={{ text: withdrawal.txHash }}>
            <a href={txUrl(withdrawal.network, withdrawal.txHash)} target="_blank" rel="noopener noreferrer">
              {withdrawal.txHash}
            </a>
          </Typography.Text>
        ) : (
          (withdrawal.txHash ?? '—')
        )}
      </Descriptions.Item>
      <Descriptions.Item label="Payment reference">{withdrawal.payoutReference ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="Reason shown to the member">{withdrawal.reason ?? '—'}</Descriptions.Item>
    </Descriptions>
  );
}

function ActionModal({
  pending,
  hotWallets,
  onClose,
  onDone,
  onRefused,
}: {
  pending: Pending | null;
  hotWallets: readonly Network[] | null;
  onClose: () => void;
  onDone: (withdrawal: AdminWithdrawal) => void;
  onRefused: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  // Keeps showing the last request while the dialog animates closed.
  const [shown, setShown] = useState(pending);
  if (pending && pending !== shown) setShown(pending);
  const action = shown?.action ?? 'approve';
  const withdrawal = shown?.withdrawal;
  const copy = ACTION_TEXT[action];
  const problem = actionInputProblem(action, text);
  return (
    <Modal
      title={copy.title}
      open={pending !== null}
      okText={copy.button}
      okButtonProps={{ danger: copy.danger, disabled: problem !== null }}
      confirmLoading={busy}
      destroyOnHidden
      afterClose={() => setText('')}
      onCancel={onClose}
      onOk={() => {
        if (!pending || busy || actionInputProblem(pending.action, text)) return;
        setBusy(true);
        send(pending, text)
          .then(onDone, (reason: unknown) => onRefused(errorText(reason)))
          .finally(() => setBusy(false));
      }}
    >
      {withdrawal && (
        <Space orientation="vertical" style={{ width: '100%' }} data-testid="withdrawal-action-dialog">
          <Typography.Paragraph>{actionExplanation(action, withdrawal, hotWallets)}</Typography.Paragraph>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Member">{withdrawal.memberEmail}</Descriptions.Item>
            <Descriptions.Item label="Amount">
              {withdrawal.amount} USDT (fee {withdrawal.fee}, member receives {withdrawal.received})
            </Descriptions.Item>
            <Descriptions.Item label="To">
              {withdrawal.network ?? withdrawal.methodType} · {withdrawal.destination}
            </Descriptions.Item>
            {withdrawal.riskHints.length > 0 && (
              <Descriptions.Item label="Risk hints">
                {withdrawal.riskHints.map((code) => (
                  <Tag key={code} color={riskHint(code).colour}>
                    {riskHint(code).label}
                  </Tag>
                ))}
              </Descriptions.Item>
            )}
            {withdrawal.payoutError && <Descriptions.Item label="Payout error">{withdrawal.payoutError}</Descriptions.Item>}
          </Descriptions>
          {copy.input === 'reason' && (
            <Input.TextArea
              aria-label="Reason"
              placeholder="Reason (shown to the member)"
              maxLength={200}
              showCount
              rows={2}
              value={text}
              onChange={(event) => setText(event.target.value)}
              data-testid="withdrawal-reason"
            />
          )}
          {copy.input === 'reference' && (
            <Input
              aria-label="Payment reference"
              placeholder={shown?.withdrawal.methodType === 'crypto' ? 'Transaction hash' : 'Bank or wallet payment reference'}
              maxLength={120}
              value={text}
              onChange={(event) => setText(event.target.value)}
              data-testid="withdrawal-reference"
            />
          )}
        </Space>
      )}
    </Modal>
  );
}

/** Members' withdrawal requests: review (approve or reject), confirm outside payouts, retry or refund failed ones. */
export function WithdrawalsScreen({ operator }: { operator: Operator }) {
  const { message } = App.useApp();
  const [filter, setFilter] = useState<WithdrawalFilter>({ status: 'pending', query: '' });
  const [page, setPage] = useState(1);
  const [pending, setPending] = useState<Pending | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  // Which networks the server pays itself, for the approval dialog's wording.
  const hotWalletsQuery = useQuery({ queryKey: withdrawalKeys.hotWallets, queryFn: listHotWallets });
  const hotWallets: Network[] | null =
    hotWalletsQuery.data?.filter((wallet) => wallet.configured).map((wallet) => wallet.network) ?? null;

  const withdrawals = useQuery({
    queryKey: withdrawalKeys.list(filter, page),
    queryFn: () => listWithdrawals(filter, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const queryClient = useQueryClient();
  // A decision changes the withdrawal and, for a refund or a rejection, the member's balances.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: withdrawalKeys.all });
    void queryClient.invalidateQueries({ queryKey: ledgerKeys.all });
  };

  const change = (next: Partial<WithdrawalFilter>) => {
    setPage(1);
    setFilter((current) => ({ ...current, ...next }));
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Withdrawals</Typography.Title>
      {withdrawals.isError && <Alert type="error" showIcon title={errorText(withdrawals.error)} />}
      <Typography.Paragraph type="secondary">
        Members&apos; withdrawal requests; the amount is held from the request on. Approving a BEP20 request pays it from the hot
        wallet at once; TRC20, bank and wallet requests are paid outside and then marked paid with the reference. A failed payout
        is retried or refunded; a rejection or refund returns the amount to the member.
      </Typography.Paragraph>
      <Space wrap>
        <Segmented<StatusFilter>
          data-testid="withdrawal-status-filter"
          options={[
            ...WITHDRAWAL_STATUSES.map((status) => ({ label: WITHDRAWAL_STATUS_LABELS[status], value: status })),
            { label: 'All', value: ALL },
          ]}
          value={filter.status ?? ALL}
          onChange={(value) => change({ status: value === ALL ? null : value })}
        />
        <Input.Search
          data-testid="withdrawal-search"
          placeholder="E-mail, address, card or transaction hash"
          allowClear
          enterButton="Search"
          onSearch={(value) => change({ query: value.trim() })}
          style={{ width: 420 }}
        />
        <Button loading={withdrawals.isFetching} onClick={() => void withdrawals.refetch()}>
          Refresh
        </Button>
      </Space>
      {refusal && (
        <Alert type="error" showIcon closable onClose={() => setRefusal(null)} title={refusal} data-testid="withdrawal-error" />
      )}
      <Table<AdminWithdrawal>
        rowKey="id"
        size="small"
        loading={withdrawals.isFetching}
        dataSource={withdrawals.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        expandable={{ expandedRowRender: (withdrawal) => <WithdrawalDetails withdrawal={withdrawal} /> }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: withdrawals.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        onRow={(withdrawal) => ({ 'data-testid': 'withdrawal-row', 'data-status': withdrawal.status }) as object}
        columns={[
          { title: 'Requested', dataIndex: 'createdAt', render: (value: string) => time(value) },
          {
            title: 'Member',
            render: (_: unknown, withdrawal) => (
              <Space orientation="vertical" size={0}>
                <span data-testid="withdrawal-member">{withdrawal.memberEmail}</span>
                <Typography.Text type="secondary" data-testid="withdrawal-kyc">
                  KYC: {withdrawal.kycStatus}
                </Typography.Text>
                <Typography.Text type="secondary" data-testid="withdrawal-history">
                  Paid before: {withdrawal.previousPaidCount} · {withdrawal.previousPaidTotal} USDT
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: 'Risk',
            dataIndex: 'riskHints',
            width: 220,
            render: (hints: string[]) =>
              hints.length === 0 ? (
                '—'
              ) : (
                <Space size={[0, 4]} wrap>
                  {hints.map((code) => {
                    const hint = riskHint(code);
                    return (
                      <Tooltip key={code} title={hint.description}>
                        <Tag color={hint.colour} data-testid="withdrawal-risk" data-risk={code}>
                          {hint.label}
                        </Tag>
                      </Tooltip>
                    );
                  })}
                </Space>
              ),
          },
          {
            title: 'Amount (USDT)',
            dataIndex: 'amount',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="withdrawal-amount" />,
          },
          {
            title: 'Fee · receives',
            align: 'right',
            render: (_: unknown, withdrawal) => (
              <Space orientation="vertical" size={0}>
                <Amount value={withdrawal.fee} testId="withdrawal-fee" />
                <Amount value={withdrawal.received} testId="withdrawal-received" />
              </Space>
            ),
          },
          { title: 'Destination', render: (_: unknown, withdrawal) => <Destination withdrawal={withdrawal} /> },
          {
            title: 'Status',
            render: (_: unknown, withdrawal) => (
              <Space orientation="vertical" size={0}>
                <Tag
                  color={WITHDRAWAL_STATUS_COLOURS[withdrawal.status]}
                  data-testid="withdrawal-status"
                  data-status={withdrawal.status}
                >
                  {WITHDRAWAL_STATUS_LABELS[withdrawal.status]}
                </Tag>
                {withdrawal.payoutError && (
                  <Typography.Text type="danger" style={{ maxWidth: 240 }} data-testid="withdrawal-payout-error">
                    {withdrawal.payoutError}
                  </Typography.Text>
                )}
                {withdrawal.txHash && withdrawal.network && (
                  <a
                    href={txUrl(withdrawal.network, withdrawal.txHash)}
                    target="_blank"
                    rel="noopener noreferrer"
                    title={withdrawal.txHash}
                    data-testid="withdrawal-tx"
                  >
                    {short(withdrawal.txHash)}
                  </a>
                )}
              </Space>
            ),
          },
          {
            title: '',
            key: 'actions',
            render: (_: unknown, withdrawal) => {
              const actions = withdrawalActions(operator.role, withdrawal);
              if (actions.length === 0) return null;
              return (
                <Space orientation="vertical" size={4}>
                  {actions.map((action) => (
                    <Button
                      key={action}
                      size="small"
                      type={action === 'approve' || action === 'markPaid' ? 'primary' : 'default'}
                      danger={ACTION_TEXT[action].danger}
                      onClick={() => {
                        setRefusal(null);
                        setPending({ withdrawal, action });
                      }}
                      data-testid={`withdrawal-${action === 'markPaid' ? 'mark-paid' : action}`}
                    >
                      {ACTION_TEXT[action].button}
                    </Button>
                  ))}
                </Space>
              );
            },
          },
        ]}
      />
      <ActionModal
        pending={pending}
        hotWallets={hotWallets}
        onClose={() => setPending(null)}
        onDone={(done) => {
          setPending(null);
          void message.success(`Withdrawal ${WITHDRAWAL_STATUS_LABELS[done.status].toLowerCase()}`);
          refresh();
        }}
        onRefused={(text) => {
          const title = pending ? ACTION_TEXT[pending.action].button.toLowerCase() : 'do that';
          setPending(null);
          setRefusal(`Could not ${title}: ${text}`);
          refresh();
        }}
      />
    </Space>
  );
}
