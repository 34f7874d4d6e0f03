import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { DEPOSIT_STATUSES, NETWORKS, type AdminDeposit, type DepositStatus, type Network } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { errorText } from '../../../lib/query/query-client';
import { chainKeys } from '../api/keys';
import { listDeposits, type DepositFilter } from '../api/list-deposits';
import { DEPOSIT_STATUS_COLOURS, DEPOSIT_STATUS_LABELS, addressUrl, shortHash, txUrl } from '../chain';

const PAGE_SIZE = 20;
const ALL = 'all';

function time(value: string | null): string {
  return value ? new Date(value).toLocaleString() : '—';
}

function ExplorerLink({ href, text, testId }: { href: string; text: string; testId?: string }) {
  return (
    <Typography.Text copyable={{ text }}>
      <a href={href} target="_blank" rel="noopener noreferrer" title={text} data-testid={testId}>
        {shortHash(text)}
      </a>
    </Typography.Text>
  );
}

function DepositDetails({ deposit }: { deposit: AdminDeposit }) {
  return (
    <Descriptions column={2} size="small" bordered>
      <Descriptions.Item label="Transaction">
        <Typography.Text copyable>{deposit.txHash}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Log index">{deposit.logIndex}</Descriptions.Item>
      <Descriptions.Item label="From">
        <a href={addressUrl(deposit.network, deposit.fromAddress)} target="_blank" rel="noopener noreferrer">
          {deposit.fromAddress}
        </a>
      </Descriptions.Item>
      <Descriptions.Item label="To (member's address)">
        <a href={addressUrl(deposit.network, deposit.toAddress)} target="_blank" rel="noopener noreferrer">
          {deposit.toAddress}
        </a>
      </Descriptions.Item>
      <Descriptions.Item label="Block hash">
        <Typography.Text copyable>{deposit.blockHash}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Block">{deposit.blockNumber}</Descriptions.Item>
      <Descriptions.Item label="Member id">
        <Typography.Text copyable>{deposit.memberId}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Account id">
        <Typography.Text copyable>{deposit.accountId}</Typography.Text>
      </Descriptions.Item>
    </Descriptions>
  );
}

/** Every member's on-chain USDT deposits, newest first, with the state of each on its network. */
export function DepositsScreen() {
  const [filter, setFilter] = useState<DepositFilter>({ network: null, status: null, query: '' });
  const [page, setPage] = useState(1);
  const deposits = useQuery({
    queryKey: chainKeys.deposits(filter, page),
    queryFn: () => listDeposits(filter, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  const change = (next: Partial<DepositFilter>) => {
    setPage(1);
    setFilter((current) => ({ ...current, ...next }));
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Deposits</Typography.Title>
      <Typography.Paragraph type="secondary">
        USDT received on members&apos; deposit addresses. A deposit is credited to the member&apos;s main account once it has its
        confirmations; below the minimum it is recorded and never credited; orphaned means its block left the chain before it was
        confirmed (it is credited only if the transaction reappears).
      </Typography.Paragraph>
      <Space wrap>
        <Select<Network | typeof ALL>
          data-testid="deposit-network-filter"
          aria-label="Network"
          style={{ width: 160 }}
          value={filter.network ?? ALL}
          options={[{ value: ALL, label: 'All networks' }, ...NETWORKS.map((network) => ({ value: network, label: network }))]}
          onChange={(value) => change({ network: value === ALL ? null : value })}
        />
        <Select<DepositStatus | typeof ALL>
          data-testid="deposit-status-filter"
          aria-label="Status"
          style={{ width: 180 }}
          value={filter.status ?? ALL}
          options={[
            { value: ALL, label: 'All statuses' },
            ...DEPOSIT_STATUSES.map((status) => ({ value: status, label: DEPOSIT_STATUS_LABELS[status] })),
          ]}
          onChange={(value) => change({ status: value === ALL ? null : value })}
        />
        <Input.Search
          data-testid="deposit-search"
          placeholder="E-mail, address or transaction hash (exact)"
          allowClear
          enterButton="Search"
          onSearch={(value) => change({ query: value.trim() })}
          style={{ width: 440 }}
        />
        <Button loading={deposits.isFetching} onClick={() => void deposits.refetch()}>
          Refresh
        </Button>
      </Space>
      {deposits.isError && <Alert type="error" showIcon title={errorText(deposits.error)} />}
      <Table<AdminDeposit>
        rowKey="id"
        size="small"
        loading={deposits.isFetching}
        dataSource={deposits.data?.items ?? []}
        expandable={{ expandedRowRender: (deposit) => <DepositDetails deposit={deposit} /> }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: deposits.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { title: 'Seen', dataIndex: 'seenAt', render: (value: string) => time(value) },
          { title: 'Member', dataIndex: 'memberEmail' },
          { title: 'Network', dataIndex: 'network', render: (value: Network) => <Tag>{value}</Tag> },
          {
            title: 'Amount (USDT)',
            dataIndex: 'amount',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="deposit-amount" />,
          },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (value: DepositStatus) => (
              <Tag color={DEPOSIT_STATUS_COLOURS[value]} data-testid="deposit-status">
                {DEPOSIT_STATUS_LABELS[value]}
              </Tag>
            ),
          },
          {
            title: 'Confirmations',
            render: (_: unknown, deposit) => `${deposit.confirmations}/${deposit.requiredConfirmations}`,
          },
          {
            title: 'Transaction',
            dataIndex: 'txHash',
            render: (value: string, deposit) => (
              <ExplorerLink href={txUrl(deposit.network, value)} text={value} testId="deposit-tx" />
            ),
          },
          { title: 'Block', dataIndex: 'blockNumber' },
          { title: 'Credited', dataIndex: 'creditedAt', render: (value: string | null) => time(value) },
        ]}
      />
    </Space>
  );
}
