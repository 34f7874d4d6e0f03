import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Alert, Button, Card, Form, Input, Modal, Radio, Select, Space, Table, Typography } from 'antd';
import type { z } from 'zod';
import {
  ASSETS,
  LEDGER_PURPOSES,
  moneyAmountSchema,
  operatorMay,
  type adminMemberBalancesResponse,
  type Asset,
  type Operator,
} from '@custos/contract';
import { ledgerKeys } from '../../../api/keys';
import { Amount } from '../../../components/Amount';
import { PostingsTable } from '../../../components/PostingsTable';
import { getMemberBalances } from '../api/get-member-balances';
import { proposeAdjustment, type AdjustmentProposal } from '../api/propose-adjustment';
import { errorText } from '../../../lib/query/query-client';
import { balanceMatrix, type BalanceRow } from '../balances';

type MemberBalances = z.infer<typeof adminMemberBalancesResponse>;
type MemberAccount = MemberBalances[number];

const REASON_MAX_LENGTH = 140;

function accountLabel(account: Pick<MemberAccount, 'kind' | 'nickname'>): string {
  return `${account.kind === 'main' ? 'Main account' : 'Sub-account'} · ${account.nickname}`;
}

interface ProposalForm {
  accountId: string;
  asset: Asset;
  direction: 'credit' | 'debit';
  amount: string;
  reason: string;
}

/** One operator proposes a manual credit or debit of a member account's available balance; another approves it. */
function ProposeAdjustmentModal({
  open,
  accounts,
  accountId,
  onClose,
  onProposed,
}: {
  open: boolean;
  accounts: MemberBalances;
  accountId: string | undefined;
  onClose: () => void;
  onProposed: () => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const propose = useMutation({
    mutationFn: (proposal: AdjustmentProposal) => proposeAdjustment(proposal),
    onSuccess: (created) => {
      void message.success(`Proposed: ${created.direction} of ${created.amount} ${created.asset}, waiting for approval`);
      onProposed();
      // The proposal waits in the adjustments list (a ledger query).
      return queryClient.invalidateQueries({ queryKey: ledgerKeys.all });
    },
  });
  const error = propose.isError ? errorText(propose.error) : null;

  const submit = (values: ProposalForm) => {
    propose.mutate({ ...values, amount: values.amount.trim(), reason: values.reason.trim() });
  };

  return (
    <Modal
      title="Propose adjustment"
      open={open}
      okText="Propose"
      confirmLoading={propose.isPending}
      okButtonProps={{ htmlType: 'submit' }}
      onCancel={onClose}
      destroyOnHidden
      modalRender={(dialog) => (
        <Form<ProposalForm>
          layout="vertical"
          clearOnDestroy
          initialValues={{ accountId, asset: 'USDT', direction: 'credit' }}
          onFinish={submit}
        >
          {dialog}
        </Form>
      )}
    >
      <Typography.Paragraph type="secondary">
        Changes the account&apos;s available balance against the platform&apos;s adjustments account once another operator
        approves it.
      </Typography.Paragraph>
      <Form.Item label="Account" name="accountId" rules={[{ required: true, message: 'Choose the account' }]}>
        <Select options={accounts.map((account) => ({ value: account.accountId, label: accountLabel(account) }))} />
      </Form.Item>
      <Form.Item label="Asset" name="asset" rules={[{ required: true, message: 'Choose the asset' }]}>
        <Select options={ASSETS.map((asset) => ({ value: asset, label: asset }))} />
      </Form.Item>
      <Form.Item label="Direction" name="direction">
        <Radio.Group
          optionType="button"
          options={[
            { value: 'credit', label: 'Credit (add)' },
            { value: 'debit', label: 'Debit (take away)' },
          ]}
        />
      </Form.Item>
      <Form.Item
        label="Amount"
        name="amount"
        rules={[
          {
            validator: async (_, value: string | undefined) => {
              if (!value?.trim()) throw new Error('Enter the amount');
              if (!moneyAmountSchema.safeParse(value.trim()).success) {
                throw new Error('Enter a positive amount with at most 4 decimal places');
              }
            },
          },
        ]}
      >
        <Input inputMode="decimal" placeholder="e.g. 125.5" autoComplete="off" />
      </Form.Item>
      <Form.Item
        label="Reason"
        name="reason"
        rules={[
          { required: true, whitespace: true, message: 'Enter the reason (kept with the adjustment and in the audit log)' },
          { max: REASON_MAX_LENGTH, message: `At most ${REASON_MAX_LENGTH} characters` },
        ]}
      >
        <Input.TextArea maxLength={REASON_MAX_LENGTH} showCount rows={2} />
      </Form.Item>
      {error && <Alert type="error" showIcon title={error} data-testid="propose-error" />}
    </Modal>
  );
}

function BalancesCard({
  account,
  selectedLedgerAccountId,
  onSelect,
}: {
  account: MemberAccount;
  selectedLedgerAccountId: string | null;
  onSelect: (ledgerAccountId: string) => void;
}) {
  const purposeColumns = LEDGER_PURPOSES.map((purpose) => ({
    title: purpose[0]!.toUpperCase() + purpose.slice(1),
    key: purpose,
    align: 'right' as const,
    render: (_: unknown, row: BalanceRow) => {
      const ledgerAccount = row.cells[purpose];
      if (!ledgerAccount) {
        return (
          <Typography.Text type="secondary" title="Nothing posted yet" data-testid={`balance-${row.asset}-${purpose}`}>
            —
          </Typography.Text>
        );
      }
      return (
        <Button
          type={ledgerAccount.id === selectedLedgerAccountId ? 'primary' : 'link'}
          size="small"
          title="Show this balance's postings"
          onClick={() => onSelect(ledgerAccount.id)}
          data-testid={`balance-${row.asset}-${purpose}`}
        >
          <Amount value={ledgerAccount.balance} />
        </Button>
      );
    },
  }));
  return (
    <Card size="small" title={accountLabel(account)} data-testid={`balances-${account.accountId}`}>
      <Table<BalanceRow>
        size="small"
        rowKey="asset"
        pagination={false}
        dataSource={balanceMatrix(account.ledgerAccounts)}
        columns={[
          { title: 'Asset', dataIndex: 'asset', render: (asset: string) => <Typography.Text strong>{asset}</Typography.Text> },
          ...purposeColumns,
          {
            title: 'Total',
            dataIndex: 'total',
            align: 'right',
            render: (total: string, row) => <Amount value={total} testId={`balance-${row.asset}-total`} />,
          },
        ]}
      />
    </Card>
  );
}

/** A member's balances per account (asset × purpose), their postings, and manual adjustment proposals. */
export function MemberLedger({ operator, memberId }: { operator: Operator; memberId: string }) {
  const [chosen, setFilter] = useState<{ accountId: string; ledgerAccountId: string | null } | null>(null);
  const [proposeOpen, setProposeOpen] = useState(false);
  const balances = useQuery({ queryKey: ledgerKeys.memberBalances(memberId), queryFn: () => getMemberBalances(memberId) });

  const accounts = balances.data;
  if (balances.isError) return <Alert type="error" showIcon title={errorText(balances.error)} />;
  if (!accounts) return <Typography.Text type="secondary">Loading…</Typography.Text>;
  // Until the operator picks one, the postings are the first account's.
  const filter = chosen ?? (accounts[0] ? { accountId: accounts[0].accountId, ledgerAccountId: null } : null);
  const filteredAccount = accounts.find((account) => account.accountId === filter?.accountId);
  const ledgerAccountOptions = (filteredAccount?.ledgerAccounts ?? []).map((ledgerAccount) => ({
    value: ledgerAccount.id,
    label: `${ledgerAccount.asset} · ${ledgerAccount.purpose}`,
  }));

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Space>
        <Button loading={balances.isFetching} onClick={() => void balances.refetch()}>
          Refresh
        </Button>
        {operatorMay(operator.role, 'ledger.propose') && (
          <Button type="primary" onClick={() => setProposeOpen(true)}>
            Propose adjustment
          </Button>
        )}
      </Space>
      {accounts.map((account) => (
        <BalancesCard
          key={account.accountId}
          account={account}
          selectedLedgerAccountId={filter?.ledgerAccountId ?? null}
          onSelect={(ledgerAccountId) => setFilter({ accountId: account.accountId, ledgerAccountId })}
        />
      ))}
      <Typography.Title level={5}>Postings</Typography.Title>
      <Space wrap>
        <Select
          aria-label="Account"
          style={{ width: 280 }}
          value={filter?.accountId}
          options={accounts.map((account) => ({ value: account.accountId, label: accountLabel(account) }))}
          onChange={(accountId: string) => setFilter({ accountId, ledgerAccountId: null })}
        />
        <Select
          aria-label="Balance"
          style={{ width: 220 }}
          value={filter?.ledgerAccountId ?? ''}
          options={[{ value: '', label: 'Every balance' }, ...ledgerAccountOptions]}
          onChange={(ledgerAccountId: string) =>
            setFilter(filter ? { ...filter, ledgerAccountId: ledgerAccountId || null } : null)
          }
        />
      </Space>
      {filter && (
        <PostingsTable
          key={`${filter.accountId}:${filter.ledgerAccountId ?? ''}`}
          filter={filter.ledgerAccountId ? { ledgerAccountId: filter.ledgerAccountId } : { accountId: filter.accountId }}
        />
      )}
      <ProposeAdjustmentModal
        open={proposeOpen}
        accounts={accounts}
        accountId={filter?.accountId}
        onClose={() => setProposeOpen(false)}
        onProposed={() => setProposeOpen(false)}
      />
    </Space>
  );
}
