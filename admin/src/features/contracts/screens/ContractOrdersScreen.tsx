import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import {
  CONTRACT_CLOSE_NOTE_MAX_LENGTH,
  CONTRACT_ORDER_STATES,
  operatorMay,
  type AdminContractOrder,
  type ContractOrderState,
  type Operator,
} from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { closeContractOrder, listContractOrders, listContractProducts, type ContractOrderFilter } from '../api/contracts';
import { contractKeys } from '../api/keys';
import { CLOSE_REASON_LABELS } from '../contracts';

const PAGE_SIZE = 20;
const ALL = 'all';
/** Open orders' P&L moves with every quote; the list is read again this often. */
const ORDERS_REFETCH_MS = 5_000;

function isState(value: string | null): value is ContractOrderState {
  return (CONTRACT_ORDER_STATES as readonly string[]).includes(value ?? '');
}

/**
 * Every contract order (issue 15), newest first, filtered by state, product and an order number or a
 * member's e-mail (in the address, so the book links here). `contracts.manage` may close a member's
 * open order at market with a reason the member sees; the server audits it.
 */
export function ContractOrdersScreen({ operator }: { operator: Operator }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const mayClose = operatorMay(operator.role, 'contracts.manage');
  const [search, setSearch] = useSearchParams();
  const state = search.get('state');
  const filter: ContractOrderFilter = {
    state: isState(state) ? state : null,
    productId: search.get('productId'),
    query: search.get('query') ?? '',
  };
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const orders = useQuery({
    queryKey: contractKeys.orders(filter, page),
    queryFn: () => listContractOrders(filter, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    refetchInterval: ORDERS_REFETCH_MS,
  });
  const products = useQuery({ queryKey: contractKeys.products, queryFn: listContractProducts });
  const [closing, setClosing] = useState<AdminContractOrder | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const change = (next: Partial<ContractOrderFilter & { page: number }>) => {
    const merged = { ...filter, page: 1, ...next };
    const parameters = new URLSearchParams();
    if (merged.state) parameters.set('state', merged.state);
    if (merged.productId) parameters.set('productId', merged.productId);
    if (merged.query) parameters.set('query', merged.query);
    if (merged.page > 1) parameters.set('page', String(merged.page));
    setSearch(parameters);
  };

  const close = () => {
    if (!closing || busy || reason.trim() === '') return;
    setBusy(true);
    closeContractOrder(closing.id, reason.trim())
      .then(
        (closed) => {
          void message.success(`Order ${closed.orderNo} closed at ${closed.closePrice ?? '—'}; P&L ${closed.pnl ?? '—'} USDT`);
          setClosing(null);
        },
        (failure: unknown) => {
          setClosing(null);
          setRefusal(`Could not close the order: ${errorText(failure)}`);
        },
      )
      .finally(() => {
        setBusy(false);
        void queryClient.invalidateQueries({ queryKey: contractKeys.all });
      });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Contract orders</Typography.Title>
      {orders.isError && <Alert type="error" showIcon title={errorText(orders.error)} />}
      {refusal && (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setRefusal(null)}
          title={refusal}
          data-testid="contract-close-refused"
        />
      )}
      <Space wrap>
        <Select<ContractOrderState | typeof ALL>
          style={{ width: 160 }}
          value={filter.state ?? ALL}
          onChange={(value) => change({ state: value === ALL ? null : value })}
          options={[
            { value: ALL, label: 'All states' },
            { value: 'open', label: 'Open' },
            { value: 'closed', label: 'Closed' },
          ]}
          data-testid="contract-orders-state"
        />
        <Select<string>
          style={{ width: 200 }}
          value={filter.productId ?? ALL}
          onChange={(value) => change({ productId: value === ALL ? null : value })}
          options={[
            { value: ALL, label: 'All products' },
            ...(products.data?.items ?? [])
              .filter((product) => product.settings !== null)
              .map((product) => ({ value: product.id, label: product.symbol })),
          ]}
          data-testid="contract-orders-product"
        />
        <Input.Search
          key={filter.query}
          defaultValue={filter.query}
          placeholder="Order number or member e-mail"
          allowClear
          enterButton="Search"
          onSearch={(value) => change({ query: value.trim() })}
          style={{ width: 380 }}
          data-testid="contract-orders-search"
        />
        <Button loading={orders.isFetching} onClick={() => void orders.refetch()}>
          Refresh
        </Button>
      </Space>
      <Table<AdminContractOrder>
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
          ({ 'data-testid': 'contract-order-row', 'data-order-no': order.orderNo, 'data-state': order.state }) as object
        }
        columns={[
          { title: 'Opened', dataIndex: 'openedAt', render: (value: string) => formatTime(value) },
          {
            title: 'Order',
            render: (_: unknown, order) => (
              <Space orientation="vertical" size={0}>
                <span>{order.orderNo}</span>
                {order.parentOrderNo && <Typography.Text type="secondary">part of {order.parentOrderNo}</Typography.Text>}
              </Space>
            ),
          },
          { title: 'Member', dataIndex: 'email' },
          {
            title: 'Product · side',
            render: (_: unknown, order) => (
              <Space size={4}>
                <span>{order.symbol}</span>
                <Tag color={order.side === 'buy' ? 'green' : 'red'}>{order.side}</Tag>
              </Space>
            ),
          },
          { title: 'Lots', dataIndex: 'lots', align: 'right' },
          { title: 'Leverage', align: 'right', render: (_: unknown, order) => `${order.leverage}×` },
          { title: 'Open price', dataIndex: 'openPrice', align: 'right' },
          {
            title: 'Close / current',
            align: 'right',
            render: (_: unknown, order) => order.closePrice ?? '—',
          },
          { title: 'TP / SL', render: (_: unknown, order) => `${order.takeProfit ?? '—'} / ${order.stopLoss ?? '—'}` },
          { title: 'Margin', align: 'right', render: (_: unknown, order) => <Amount value={order.margin} /> },
          { title: 'Spread', align: 'right', render: (_: unknown, order) => <Amount value={order.spreadCost} /> },
          { title: 'Swap', align: 'right', render: (_: unknown, order) => <Amount value={order.swap} signed /> },
          {
            title: 'P&L',
            align: 'right',
            render: (_: unknown, order) =>
              order.pnl === null ? '—' : <Amount value={order.pnl} signed testId="contract-order-row-pnl" />,
          },
          {
            title: 'State',
            render: (_: unknown, order) => (
              <Space orientation="vertical" size={0}>
                <Tag color={order.state === 'open' ? 'blue' : 'default'} data-testid="contract-order-row-state">
                  {order.state === 'open'
                    ? 'open'
                    : `closed · ${order.closeReason ? CLOSE_REASON_LABELS[order.closeReason] : ''}`}
                </Tag>
                {order.closedAt && <Typography.Text type="secondary">{formatTime(order.closedAt)}</Typography.Text>}
                {order.closeNote && (
                  <Typography.Text type="secondary" data-testid="contract-order-row-note">
                    {order.closeNote}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          ...(mayClose
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, order: AdminContractOrder) =>
                    order.state === 'open' && (
                      <Button
                        size="small"
                        danger
                        onClick={() => {
                          setRefusal(null);
                          setReason('');
                          setClosing(order);
                        }}
                        data-testid="contract-order-close"
                      >
                        Close
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
      <Modal
        title="Close the member's order"
        open={closing !== null}
        okText="Close order"
        okButtonProps={{ danger: true, disabled: reason.trim() === '' }}
        confirmLoading={busy}
        onCancel={() => setClosing(null)}
        onOk={close}
        destroyOnHidden
      >
        {closing && (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Typography.Paragraph>
              Order {closing.orderNo} of {closing.email}: {closing.side} {closing.lots} lots of {closing.symbol} opened at{' '}
              {closing.openPrice}. It closes at market now ({closing.side === 'buy' ? 'at the bid' : 'at the ask'}); its P&L is
              settled and its margin released. This cannot be undone. The member sees your reason.
            </Typography.Paragraph>
            <Input.TextArea
              aria-label="Reason"
              placeholder="Reason (shown to the member)"
              maxLength={CONTRACT_CLOSE_NOTE_MAX_LENGTH}
              showCount
              rows={2}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              data-testid="contract-order-close-reason"
            />
          </Space>
        )}
      </Modal>
    </Space>
  );
}
