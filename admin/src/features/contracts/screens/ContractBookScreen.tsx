import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Space, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import type { ContractExposure, ContractMemberAtRisk } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { getContractBook } from '../api/contracts';
import { contractKeys } from '../api/keys';

/** The book moves with every quote; it is read again this often while open. */
const BOOK_REFETCH_MS = 5_000;

/**
 * The live book (issue 15): the members' open exposure per product (long, short and net lots, margin
 * held, their floating P&L, which is the book's with the sign turned), the members whose margin level
 * is below the margin-call level (lowest first), and the book account's balance.
 */
export function ContractBookScreen() {
  const book = useQuery({ queryKey: contractKeys.book, queryFn: getContractBook, refetchInterval: BOOK_REFETCH_MS });
  const data = book.data;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          Contract book
        </Typography.Title>
        <Space>
          {data && <Typography.Text type="secondary">as of {formatTime(data.asOf)}</Typography.Text>}
          <Button loading={book.isFetching} onClick={() => void book.refetch()}>
            Refresh
          </Button>
        </Space>
      </Space>
      {book.isError && <Alert type="error" showIcon title={errorText(book.error)} />}
      <Card loading={!data && !book.isError} data-testid="contract-book-totals">
        {data && (
          <Descriptions size="small" column={3}>
            <Descriptions.Item label="Open orders">
              <span data-testid="contract-book-open-orders">{data.totals.openOrders}</span>
            </Descriptions.Item>
            <Descriptions.Item label="Margin held">
              <Amount value={data.totals.marginHeld} testId="contract-book-margin" />
            </Descriptions.Item>
            <Descriptions.Item label="Members' floating P&L">
              <Amount value={data.totals.floatingPnl} signed testId="contract-book-floating" />
            </Descriptions.Item>
            <Descriptions.Item label="Book account">
              <Amount value={data.bookBalance} testId="contract-book-balance" />
            </Descriptions.Item>
            <Descriptions.Item label="Stop-out level">{data.stopOutLevelPct} %</Descriptions.Item>
            <Descriptions.Item label="Margin-call level">{data.marginCallLevelPct} %</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Typography.Title level={4}>Exposure per product</Typography.Title>
      <Table<ContractExposure>
        rowKey="productId"
        size="small"
        pagination={false}
        dataSource={data?.exposure ?? []}
        onRow={(row) => ({ 'data-testid': 'contract-exposure-row', 'data-symbol': row.symbol }) as object}
        columns={[
          { title: 'Product', dataIndex: 'symbol' },
          { title: 'Open orders', dataIndex: 'openOrders', align: 'right' },
          { title: 'Long lots', dataIndex: 'longLots', align: 'right' },
          { title: 'Short lots', dataIndex: 'shortLots', align: 'right' },
          {
            title: 'Net lots (members)',
            align: 'right',
            render: (_: unknown, row) => <span data-testid="contract-exposure-net">{row.netLots}</span>,
          },
          { title: 'Margin held', align: 'right', render: (_: unknown, row) => <Amount value={row.marginHeld} /> },
          {
            title: "Members' floating P&L",
            align: 'right',
            render: (_: unknown, row) => <Amount value={row.floatingPnl} signed testId="contract-exposure-pnl" />,
          },
        ]}
      />
      <Typography.Title level={4}>Members at risk</Typography.Title>
      <Table<ContractMemberAtRisk>
        rowKey="memberId"
        size="small"
        pagination={false}
        dataSource={data?.membersAtRisk ?? []}
        onRow={(row) => ({ 'data-testid': 'contract-at-risk-row', 'data-email': row.email }) as object}
        columns={[
          {
            title: 'Member',
            render: (_: unknown, row) => (
              <Link to={`/contracts/orders?state=open&query=${encodeURIComponent(row.email)}`}>{row.email}</Link>
            ),
          },
          { title: 'Open orders', dataIndex: 'openOrders', align: 'right' },
          { title: 'Margin used', align: 'right', render: (_: unknown, row) => <Amount value={row.usedMargin} /> },
          { title: 'Equity', align: 'right', render: (_: unknown, row) => <Amount value={row.equity} /> },
          {
            title: 'Margin level',
            align: 'right',
            render: (_: unknown, row) => <Tag color="red">{row.marginLevel === null ? '—' : `${row.marginLevel} %`}</Tag>,
          },
        ]}
      />
    </Space>
  );
}
