import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Badge, Button, Segmented, Space, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import type { AdminOtcAppealItem, OtcAppealStatus } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { listOtcAppeals } from '../api/otc';
import { otcKeys } from '../api/keys';
import { OTC_FALLBACK_REFETCH_MS, useOtcLive } from '../api/use-otc-live';
import { LiveTag } from '../components/LiveTag';
import { PartyCell } from '../components/Party';
import { APPEAL_REASON_LABELS, RULING_LABELS } from '../otc';

const PAGE_SIZE = 20;

/**
 * The appeal queue (decision 031): open appeals oldest first, each frozen until an operator rules.
 * Refreshed live by the OTC channel (or every 15 s while it is down); a row opens the order.
 */
export function OtcAppealsScreen() {
  const connected = useOtcLive();
  const [status, setStatus] = useState<OtcAppealStatus>('open');
  const [page, setPage] = useState(1);
  const appeals = useQuery({
    queryKey: otcKeys.appeals(status, page),
    queryFn: () => listOtcAppeals(status, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    refetchInterval: connected ? false : OTC_FALLBACK_REFETCH_MS,
  });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          OTC appeals <Badge count={appeals.data?.openTotal ?? 0} overflowCount={999} data-testid="otc-appeals-open" />
        </Typography.Title>
        <LiveTag connected={connected} />
      </Space>
      <Typography.Paragraph type="secondary">
        An appealed order is frozen: no timer releases or cancels it until you rule. Open an order to see both sides&apos; reasons
        and evidence, its trail and the parties&apos; chat, then release the USDT to the buyer or return it to the seller.
      </Typography.Paragraph>
      {appeals.isError && <Alert type="error" showIcon title={errorText(appeals.error)} />}
      <Space>
        <Segmented<OtcAppealStatus>
          data-testid="otc-appeal-status"
          options={[
            { label: 'Open', value: 'open' },
            { label: 'Ruled', value: 'ruled' },
          ]}
          value={status}
          onChange={(value) => {
            setPage(1);
            setStatus(value);
          }}
        />
        <Button loading={appeals.isFetching} onClick={() => void appeals.refetch()}>
          Refresh
        </Button>
      </Space>
      <Table<AdminOtcAppealItem>
        rowKey="id"
        size="small"
        loading={appeals.isFetching && !appeals.data}
        dataSource={appeals.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: appeals.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        onRow={(appeal) => ({ 'data-testid': 'otc-appeal-row', 'data-order-no': appeal.order.orderNo }) as object}
        columns={[
          { title: 'Appealed', dataIndex: 'createdAt', render: (value: string) => formatTime(value) },
          {
            title: 'Order',
            render: (_: unknown, appeal) => (
              <Link to={`/otc/orders/${appeal.order.id}`} data-testid="otc-appeal-open">
                {appeal.order.orderNo}
              </Link>
            ),
          },
          {
            title: 'By',
            render: (_: unknown, appeal) => (
              <Space orientation="vertical" size={0}>
                <Tag color={appeal.by === 'buyer' ? 'blue' : 'purple'}>{appeal.by}</Tag>
                <Typography.Text>{APPEAL_REASON_LABELS[appeal.reason]}</Typography.Text>
              </Space>
            ),
          },
          {
            title: 'USDT',
            align: 'right',
            render: (_: unknown, appeal) => <Amount value={appeal.order.amount} />,
          },
          {
            title: 'Fiat',
            align: 'right',
            render: (_: unknown, appeal) => `${appeal.order.fiatAmount} ${appeal.order.fiatCurrency}`,
          },
          {
            title: 'Buyer · seller',
            render: (_: unknown, appeal) => (
              <Space orientation="vertical" size={4}>
                <PartyCell party={appeal.order.buyer} testId="otc-appeal-buyer" />
                <PartyCell party={appeal.order.seller} testId="otc-appeal-seller" />
              </Space>
            ),
          },
          { title: 'Evidence', render: (_: unknown, appeal) => `${appeal.imageIds.length} image(s)` },
          {
            title: 'Ruling',
            render: (_: unknown, appeal) =>
              appeal.ruling ? (
                <Space orientation="vertical" size={0}>
                  <Tag color="green" data-testid="otc-appeal-ruling">
                    {RULING_LABELS[appeal.ruling]}
                  </Tag>
                  <Typography.Text type="secondary">
                    {appeal.ruledBy ?? ''} {appeal.ruledAt ? formatTime(appeal.ruledAt) : ''}
                  </Typography.Text>
                </Space>
              ) : (
                <Tag color="red">Awaiting ruling</Tag>
              ),
          },
        ]}
      />
    </Space>
  );
}
