import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { OTC_ORDER_STATES, OTC_SIDES, type AdminOtcOrder, type OtcOrderState, type OtcSide } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { listOtcOrders, type OtcOrderFilter } from '../api/otc';
import { otcKeys } from '../api/keys';
import { OTC_FALLBACK_REFETCH_MS, useOtcLive } from '../api/use-otc-live';
import { LiveTag } from '../components/LiveTag';
import { PartyCell } from '../components/Party';
import { ORDER_STATE_COLOURS, ORDER_STATE_LABELS, orderOutcome } from '../otc';

const PAGE_SIZE = 20;
const ALL = 'all';

function isOrderState(value: string | null): value is OtcOrderState {
  return (OTC_ORDER_STATES as readonly string[]).includes(value ?? '');
}

function isSide(value: string | null): value is OtcSide {
  return (OTC_SIDES as readonly string[]).includes(value ?? '');
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const dayOf = (value: string | null) => (value && DAY_PATTERN.test(value) ? value : '');

const SIDE_LABELS: Record<OtcSide, string> = {
  sell: 'Sell listings (member bought USDT)',
  buy: 'Buy listings (member sold USDT)',
};

/**
 * Every OTC order (decision 031), newest first, filtered by state, the listing's side, the platform
 * days it was placed on, and an order or listing number or a party's e-mail. The filter lives in the
 * address, so a listing links to its orders.
 */
export function OtcOrdersScreen() {
  const connected = useOtcLive();
  const [search, setSearch] = useSearchParams();
  const state = search.get('state');
  const side = search.get('side');
  const filter: OtcOrderFilter = {
    state: isOrderState(state) ? state : null,
    query: search.get('query') ?? '',
    side: isSide(side) ? side : null,
    from: dayOf(search.get('from')),
    to: dayOf(search.get('to')),
  };
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const orders = useQuery({
    queryKey: otcKeys.orders(filter, page),
    queryFn: () => listOtcOrders(filter, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    refetchInterval: connected ? false : OTC_FALLBACK_REFETCH_MS,
  });

  const change = (next: Partial<OtcOrderFilter & { page: number }>) => {
    const merged = { ...filter, page: 1, ...next };
    const parameters = new URLSearchParams();
    if (merged.state) parameters.set('state', merged.state);
    if (merged.query) parameters.set('query', merged.query);
    if (merged.side) parameters.set('side', merged.side);
    if (merged.from) parameters.set('from', merged.from);
    if (merged.to) parameters.set('to', merged.to);
    if (merged.page > 1) parameters.set('page', String(merged.page));
    setSearch(parameters);
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          OTC orders
        </Typography.Title>
        <LiveTag connected={connected} />
      </Space>
      {orders.isError && <Alert type="error" showIcon title={errorText(orders.error)} />}
      <Space wrap>
        <Select<OtcOrderState | typeof ALL>
          style={{ width: 220 }}
          value={filter.state ?? ALL}
          onChange={(value) => change({ state: value === ALL ? null : value })}
          options={[
            { value: ALL, label: 'All states' },
            ...OTC_ORDER_STATES.map((value) => ({ value, label: ORDER_STATE_LABELS[value] })),
          ]}
          data-testid="otc-orders-state"
        />
        <Select<OtcSide | typeof ALL>
          style={{ width: 280 }}
          value={filter.side ?? ALL}
          onChange={(value) => change({ side: value === ALL ? null : value })}
          options={[{ value: ALL, label: 'Both sides' }, ...OTC_SIDES.map((value) => ({ value, label: SIDE_LABELS[value] }))]}
          data-testid="otc-orders-side"
        />
        <Input
          type="date"
          aria-label="Placed from (platform day)"
          value={filter.from}
          max={filter.to || undefined}
          onChange={(event) => change({ from: event.target.value })}
          style={{ width: 160 }}
          data-testid="otc-orders-from"
        />
        <Input
          type="date"
          aria-label="Placed to (platform day)"
          value={filter.to}
          min={filter.from || undefined}
          onChange={(event) => change({ to: event.target.value })}
          style={{ width: 160 }}
          data-testid="otc-orders-to"
        />
        <Input.Search
          key={filter.query}
          defaultValue={filter.query}
          placeholder="Order or listing number, or a party's e-mail"
          allowClear
          enterButton="Search"
          onSearch={(value) => change({ query: value.trim() })}
          style={{ width: 420 }}
          data-testid="otc-orders-search"
        />
        <Button loading={orders.isFetching} onClick={() => void orders.refetch()}>
          Refresh
        </Button>
      </Space>
      <Table<AdminOtcOrder>
        rowKey="id"
        size="small"
        loading={orders.isFetching && !orders.data}
        dataSource={orders.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: orders.data?.total ?? 0,
          onChange: (next) => change({ page: next }),
          showSizeChanger: false,
        }}
        onRow={(order) =>
          ({ 'data-testid': 'otc-order-row', 'data-order-no': order.orderNo, 'data-state': order.state }) as object
        }
        columns={[
          { title: 'Created', dataIndex: 'createdAt', render: (value: string) => formatTime(value) },
          {
            title: 'Order',
            render: (_: unknown, order) => (
              <Space orientation="vertical" size={0}>
                <Link to={`/otc/orders/${order.id}`} data-testid="otc-order-open">
                  {order.orderNo}
                </Link>
                <Typography.Text type="secondary">
                  {order.listingSide === 'sell' ? 'sell' : 'buy'} listing {order.listingNo}
                </Typography.Text>
              </Space>
            ),
          },
          { title: 'Buyer', render: (_: unknown, order) => <PartyCell party={order.buyer} testId="otc-order-buyer" /> },
          { title: 'Seller', render: (_: unknown, order) => <PartyCell party={order.seller} testId="otc-order-seller" /> },
          { title: 'USDT', align: 'right', render: (_: unknown, order) => <Amount value={order.amount} /> },
          {
            title: 'Price · fiat',
            align: 'right',
            render: (_: unknown, order) => (
              <Space orientation="vertical" size={0}>
                <span>{order.price}</span>
                <Typography.Text type="secondary">
                  {order.fiatAmount} {order.fiatCurrency}
                </Typography.Text>
              </Space>
            ),
          },
          { title: 'Escrow', align: 'right', render: (_: unknown, order) => <Amount value={order.escrowHeld} /> },
          {
            title: 'State',
            render: (_: unknown, order) => (
              <Tag color={ORDER_STATE_COLOURS[order.state]} data-testid="otc-order-row-state">
                {orderOutcome(order)}
              </Tag>
            ),
          },
        ]}
      />
    </Space>
  );
}
