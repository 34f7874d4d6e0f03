import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Descriptions, Empty, Row, Space, Tag, Timeline, Typography } from 'antd';
import { Link, useParams } from 'react-router';
import { operatorMay, type AdminOtcOrderDetail, type OtcAppeal, type OtcPaymentDetail, type Operator } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { getOtcOrder, otcEvidencePath } from '../api/otc';
import { otcKeys } from '../api/keys';
import { OTC_FALLBACK_REFETCH_MS, useOtcLive } from '../api/use-otc-live';
import { LiveTag } from '../components/LiveTag';
import { OrderChat } from '../components/OrderChat';
import { PartyWithReputation } from '../components/Party';
import { PrivateImage } from '../components/PrivateImage';
import { RulingPanel } from '../components/RulingPanel';
import {
  ACTOR_LABELS,
  APPEAL_REASON_LABELS,
  CANCEL_REASON_LABELS,
  ORDER_STATE_COLOURS,
  ORDER_STATE_LABELS,
  PAYMENT_TYPE_LABELS,
  RULING_LABELS,
  STEP_LABELS,
  trailNote,
} from '../otc';

function time(value: string | null): string {
  return value ? formatTime(value) : '—';
}

function PaymentMethod({ method }: { method: OtcPaymentDetail }) {
  const details = [method.bankName, method.branch, method.cardNumber, method.account].filter(Boolean).join(' · ');
  return (
    <Typography.Text>
      <Tag>{PAYMENT_TYPE_LABELS[method.type]}</Tag>
      {method.holderName} {details && `· ${details}`}
    </Typography.Text>
  );
}

function AppealCard({ order, appeal }: { order: AdminOtcOrderDetail; appeal: OtcAppeal }) {
  const party = appeal.by === 'buyer' ? order.buyer : order.seller;
  return (
    <Card
      size="small"
      title={`Appeal by the ${appeal.by} (${party.email})`}
      extra={
        appeal.status === 'open' ? (
          <Tag color="red">Awaiting ruling</Tag>
        ) : (
          <Tag color="green">{appeal.ruling ? RULING_LABELS[appeal.ruling] : 'Ruled'}</Tag>
        )
      }
      data-testid="otc-appeal"
      data-by={appeal.by}
    >
      <Descriptions size="small" column={1}>
        <Descriptions.Item label="Reason">
          <span data-testid="otc-appeal-reason">{APPEAL_REASON_LABELS[appeal.reason]}</span>
        </Descriptions.Item>
        <Descriptions.Item label="Description">
          <span style={{ whiteSpace: 'pre-wrap' }} data-testid="otc-appeal-description">
            {appeal.description}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label="Appealed">{formatTime(appeal.createdAt)}</Descriptions.Item>
        {appeal.rulingNote !== null && (
          <Descriptions.Item label="Ruling note">
            <span data-testid="otc-appeal-ruling-note">{appeal.rulingNote}</span>
          </Descriptions.Item>
        )}
        {appeal.ruledAt && <Descriptions.Item label="Ruled">{formatTime(appeal.ruledAt)}</Descriptions.Item>}
      </Descriptions>
      {appeal.imageIds.length === 0 ? (
        <Typography.Text type="secondary">No evidence images</Typography.Text>
      ) : (
        <Space wrap>
          {appeal.imageIds.map((uploadId) => (
            <PrivateImage key={uploadId} path={otcEvidencePath(order.id, uploadId)} alt="Evidence" testId="otc-evidence-image" />
          ))}
        </Space>
      )}
    </Card>
  );
}

function OrderFacts({ order }: { order: AdminOtcOrderDetail }) {
  return (
    <Descriptions size="small" bordered column={2} data-testid="otc-order-facts">
      <Descriptions.Item label="Listing">
        <Link to={`/otc/listings?query=${encodeURIComponent(order.listingNo)}`} data-testid="otc-order-listing">
          {order.listingNo}
        </Link>{' '}
        ({order.listingSide === 'sell' ? 'a sell listing' : 'a buy listing'}: the {order.lister} listed, the {order.taker} took
        it)
      </Descriptions.Item>
      <Descriptions.Item label="Amount">
        <Amount value={order.amount} testId="otc-order-amount" /> USDT at {order.price} {order.fiatCurrency}
      </Descriptions.Item>
      <Descriptions.Item label="Buyer pays">
        {order.fiatAmount} {order.fiatCurrency}
      </Descriptions.Item>
      <Descriptions.Item label="Maker's fee">
        <Amount value={order.fee} /> USDT
      </Descriptions.Item>
      <Descriptions.Item label="Escrow held now">
        <Amount value={order.escrowHeld} testId="otc-order-escrow" /> USDT
      </Descriptions.Item>
      <Descriptions.Item label="Security deposit">
        {order.listingDepositStatus === 'none' ? (
          'none'
        ) : (
          <span data-testid="otc-order-deposit">
            {order.listingDeposit} USDT ({order.listingDepositStatus})
          </span>
        )}
      </Descriptions.Item>
      <Descriptions.Item label="Created">{time(order.createdAt)}</Descriptions.Item>
      <Descriptions.Item label="Pay by">{time(order.payDeadline)}</Descriptions.Item>
      <Descriptions.Item label="Marked paid">{time(order.paidAt)}</Descriptions.Item>
      <Descriptions.Item label="Appeals open from">{time(order.appealAllowedAt)}</Descriptions.Item>
      <Descriptions.Item label="Completed">{time(order.completedAt)}</Descriptions.Item>
      <Descriptions.Item label="Cancelled">
        {order.cancelledAt
          ? `${time(order.cancelledAt)} (${order.cancelReason ? CANCEL_REASON_LABELS[order.cancelReason] : ''})`
          : '—'}
      </Descriptions.Item>
      <Descriptions.Item label="Seller's payment details shown to the buyer" span={2}>
        {order.paymentMethods.length === 0 ? (
          '—'
        ) : (
          <Space orientation="vertical" size={0}>
            {order.paymentMethods.map((method) => (
              <PaymentMethod key={method.id} method={method} />
            ))}
          </Space>
        )}
      </Descriptions.Item>
      <Descriptions.Item label="Terms" span={2}>
        <span style={{ whiteSpace: 'pre-wrap' }}>{order.terms || '—'}</span>
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * One OTC order (decision 031), reached from the appeal queue, the orders list and a listing's
 * orders: the facts, both parties with their reputations, every appeal with its evidence, the
 * trail, the parties' chat (read-only) and, while it is under appeal, the ruling.
 */
export function OtcOrderScreen({ operator }: { operator: Operator }) {
  const { orderId = '' } = useParams<{ orderId: string }>();
  const connected = useOtcLive();
  const orderQuery = useQuery({
    queryKey: otcKeys.order(orderId),
    queryFn: () => getOtcOrder(orderId),
    refetchInterval: connected ? false : OTC_FALLBACK_REFETCH_MS,
  });
  const order = orderQuery.data;
  const mayRule = operatorMay(operator.role, 'otc.arbitrate');

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Space>
          <Typography.Title level={3} style={{ margin: 0 }}>
            OTC order <span data-testid="otc-order-no">{order?.orderNo ?? ''}</span>
          </Typography.Title>
          {order && (
            <Tag color={ORDER_STATE_COLOURS[order.state]} data-testid="otc-order-state" data-state={order.state}>
              {ORDER_STATE_LABELS[order.state]}
            </Tag>
          )}
        </Space>
        <Space>
          <Link to="/otc/appeals">Appeal queue</Link>
          <Link to="/otc/orders">All orders</Link>
          <LiveTag connected={connected} />
        </Space>
      </Space>
      {orderQuery.isError && <Alert type="error" showIcon title={errorText(orderQuery.error)} data-testid="otc-order-error" />}
      {orderQuery.isPending && <Card loading />}
      {order && (
        <>
          {order.state === 'appeal' && (
            <Alert
              type="warning"
              showIcon
              title="Under appeal: the order is frozen. No timer releases or cancels it until a ruling."
            />
          )}
          <OrderFacts order={order} />
          <Row gutter={16}>
            <Col span={12}>
              <Card size="small" title="Buyer">
                <PartyWithReputation party={order.buyer} role="Buyer" testId="otc-buyer" />
              </Card>
            </Col>
            <Col span={12}>
              <Card size="small" title="Seller">
                <PartyWithReputation party={order.seller} role="Seller" testId="otc-seller" />
              </Card>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col span={14}>
              <Space orientation="vertical" style={{ width: '100%' }}>
                {order.appeals.length === 0 ? (
                  <Card size="small" title="Appeals">
                    <Empty description="No appeal on this order" />
                  </Card>
                ) : (
                  order.appeals.map((appeal) => <AppealCard key={appeal.id} order={order} appeal={appeal} />)
                )}
                {order.state === 'appeal' && mayRule && <RulingPanel key={order.id} order={order} />}
                {order.state === 'appeal' && !mayRule && (
                  <Alert type="info" showIcon title="Your role may read appeals but not rule on them." />
                )}
                <OrderChat order={order} />
              </Space>
            </Col>
            <Col span={10}>
              <Card size="small" title="Trail" data-testid="otc-trail">
                <Timeline
                  items={order.trail.map((item) => ({
                    key: `${item.step}-${item.at}`,
                    children: (
                      <Space orientation="vertical" size={0} data-testid="otc-trail-step" data-step={item.step}>
                        <Typography.Text strong>
                          {STEP_LABELS[item.step]} · {ACTOR_LABELS[item.actor]}
                        </Typography.Text>
                        <Typography.Text type="secondary">{formatTime(item.at)}</Typography.Text>
                        {item.note && <Typography.Text>{trailNote(item.step, item.note)}</Typography.Text>}
                      </Space>
                    ),
                  }))}
                />
              </Card>
            </Col>
          </Row>
        </>
      )}
    </Space>
  );
}
