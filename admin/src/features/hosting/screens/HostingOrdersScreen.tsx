import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Input, Segmented, Space, Table, Tag, Typography } from 'antd';
import { HOSTING_ORDER_STATUSES, type HostingOrderStatus } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { listHostingOrders, type HostingOrderFilter } from '../api/list-hosting-orders';
import { ORDER_STATUS_COLOURS, ORDER_STATUS_LABELS, percentText, type AdminHostingOrder } from '../hosting';
import { errorText } from '../../../lib/query/query-client';
import { hostingKeys } from '../api/keys';

const PAGE_SIZE = 20;
const ALL = 'all';

type StatusFilter = HostingOrderStatus | typeof ALL;

function time(value: string | null): string {
  return value ? new Date(value).toLocaleString() : '—';
}

function OrderDetails({ order }: { order: AdminHostingOrder }) {
  return (
    <Descriptions column={2} size="small" bordered>
      <Descriptions.Item label="Order id">
        <Typography.Text copyable>{order.id}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Account id">
        <Typography.Text copyable>{order.accountId}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Plan id">
        <Typography.Text copyable>{order.planId}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Renewed from">
        {order.renewedFromId ? <Typography.Text copyable>{order.renewedFromId}</Typography.Text> : '—'}
      </Descriptions.Item>
      <Descriptions.Item label="Created">{time(order.createdAt)}</Descriptions.Item>
      <Descriptions.Item label="Closed">{time(order.closedAt)}</Descriptions.Item>
      <Descriptions.Item label="Returned">{order.returnedAmount ? `${order.returnedAmount} USDT` : '—'}</Descriptions.Item>
      <Descriptions.Item label="Penalty">{order.penalty ? `${order.penalty} USDT` : '—'}</Descriptions.Item>
    </Descriptions>
  );
}

/** Members' custody orders, newest first: by status, or one member's by e-mail. */
export function HostingOrdersScreen() {
  const [filter, setFilter] = useState<HostingOrderFilter>({ status: null, query: '' });
  const [page, setPage] = useState(1);

  const orders = useQuery({
    queryKey: hostingKeys.orders(filter, page),
    queryFn: () => listHostingOrders(filter, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  const change = (next: Partial<HostingOrderFilter>) => {
    setPage(1);
    setFilter((current) => ({ ...current, ...next }));
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Custody orders</Typography.Title>
      {orders.isError && <Alert type="error" showIcon title={errorText(orders.error)} />}
      <Typography.Paragraph type="secondary">
        Every member&apos;s custody orders with the terms each was made with, the days of interest paid and the interest so far.
        An expired order either returned its principal or renewed into a new order (shown as renewed from it).
      </Typography.Paragraph>
      <Space wrap>
        <Segmented<StatusFilter>
          data-testid="hosting-order-status-filter"
          options={[
            { label: 'All', value: ALL },
            ...HOSTING_ORDER_STATUSES.map((status) => ({ label: ORDER_STATUS_LABELS[status], value: status })),
          ]}
          value={filter.status ?? ALL}
          onChange={(value) => change({ status: value === ALL ? null : value })}
        />
        <Input.Search
          data-testid="hosting-order-search"
          placeholder="Member e-mail (exact)"
          allowClear
          enterButton="Search"
          onSearch={(value) => change({ query: value.trim() })}
          style={{ width: 360 }}
        />
        <Button loading={orders.isFetching} onClick={() => void orders.refetch()}>
          Refresh
        </Button>
      </Space>
      <Table<AdminHostingOrder>
        rowKey="id"
        size="small"
        loading={orders.isFetching}
        dataSource={orders.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        expandable={{ expandedRowRender: (order) => <OrderDetails order={order} /> }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: orders.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        onRow={(order) =>
          ({ 'data-testid': 'hosting-order-row', 'data-order-id': order.id, 'data-status': order.status }) as object
        }
        columns={[
          { title: 'Created', dataIndex: 'createdAt', render: (value: string) => time(value) },
          {
            title: 'Member',
            dataIndex: 'memberEmail',
            render: (value: string) => <span data-testid="hosting-order-member">{value}</span>,
          },
          {
            title: 'Plan',
            render: (_: unknown, order) => (
              <Space orientation="vertical" size={0}>
                <span data-testid="hosting-order-plan">{order.planName}</span>
                <Typography.Text type="secondary">
                  {order.periodDays} days · {percentText(order.dailyRate)} a day
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: 'Amount (USDT)',
            dataIndex: 'amount',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="hosting-order-amount" />,
          },
          {
            title: 'Dates',
            render: (_: unknown, order) => (
              <span data-testid="hosting-order-dates">
                {order.startDate} – {order.endDate}
              </span>
            ),
          },
          {
            title: 'Days',
            align: 'right',
            render: (_: unknown, order) => (
              <span data-testid="hosting-order-days">
                {order.daysAccrued} / {order.periodDays}
              </span>
            ),
          },
          {
            title: 'Interest so far (USDT)',
            dataIndex: 'interestSoFar',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="hosting-order-interest" />,
          },
          {
            title: 'Auto-renew',
            dataIndex: 'autoRenew',
            render: (value: boolean) => (value ? 'On' : 'Off'),
          },
          {
            title: 'Status',
            render: (_: unknown, order) => (
              <Space orientation="vertical" size={0}>
                <Tag color={ORDER_STATUS_COLOURS[order.status]} data-testid="hosting-order-status" data-status={order.status}>
                  {ORDER_STATUS_LABELS[order.status]}
                </Tag>
                {order.renewedFromId && <Typography.Text type="secondary">Renewal</Typography.Text>}
                {order.penalty && order.status === 'redeemed' && (
                  <Typography.Text type="secondary" data-testid="hosting-order-penalty">
                    Penalty {order.penalty}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}
