import { useCallback, useState } from 'react';
import { CapsuleTabs, Segmented, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate, useSearchParams } from '../../../lib/router/router';
import { OTC_ORDER_STATES, type OtcOrder, type OtcOrderState, type OtcRole } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { usePagedQuery } from '../../../lib/paging/use-paged-query';
import { otcKeys } from '../api/keys';
import { listMyBuyOrders } from '../api/list-my-buy-orders';
import { listMySellOrders } from '../api/list-my-sell-orders';
import { orderDetailPath } from '../paths';
import { ORDER_STATE_COLOURS } from '../order-state-colours';

const ALL = 'all';

/** The steps an order has taken so far, each with its time (the detail screen has the full trail). */
function OrderSteps({ order }: { order: OtcOrder }) {
  const { t } = useTranslation();
  const steps: { key: string; label: string; at: string }[] = [
    { key: 'created', label: t('otc.createdAt'), at: order.createdAt },
  ];
  if (order.paidAt) steps.push({ key: 'paid', label: t('otc.paidAt'), at: order.paidAt });
  if (order.completedAt) steps.push({ key: 'completed', label: t('otc.completedAt'), at: order.completedAt });
  if (order.cancelledAt) steps.push({ key: 'cancelled', label: t('otc.cancelledAt'), at: order.cancelledAt });
  return (
    <ol className="otc-trail otc-trail-compact" data-testid="otc-order-steps">
      {steps.map((step) => (
        <li key={step.key} data-testid="otc-order-step" data-step={step.key}>
          <span className="otc-trail-step">{step.label}</span> <span className="otc-trail-time">{formatDateTime(step.at)}</span>
        </li>
      ))}
    </ol>
  );
}

function OrderRow({ order }: { order: OtcOrder }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div
      role="link"
      tabIndex={0}
      className="otc-order-row"
      onClick={() => void navigate(orderDetailPath(order.id))}
      onKeyDown={(event) => {
        if (event.key === 'Enter') void navigate(orderDetailPath(order.id));
      }}
      data-testid="otc-order-item"
      data-order-id={order.id}
      data-state={order.state}
    >
      <div className="otc-order-head-line">
        <Tag color={order.myRole === 'buyer' ? 'success' : 'danger'} fill="outline">
          {t(`otc.roles.${order.myRole}`)}
        </Tag>
        <span className="otc-listing-no">{t('otc.orderNo', { no: order.orderNo })}</span>
        <Tag color={ORDER_STATE_COLOURS[order.state]} data-testid="otc-order-item-state" data-state={order.state}>
          {t(`otc.orderStates.${order.state}`)}
        </Tag>
      </div>
      <div className="otc-order-row-figures">
        <span data-testid="otc-order-item-amount">{displayMoney(order.amount)} USDT</span>
        <span>
          @ {displayMoney(order.price)} {order.fiatCurrency}
        </span>
        <span className="otc-order-row-fiat" data-testid="otc-order-item-fiat">
          {order.fiatAmount} {order.fiatCurrency}
        </span>
      </div>
      <div className="otc-order-row-party">
        {t('otc.counterparty')}: {order.counterparty.nickname}
      </div>
      <OrderSteps order={order} />
    </div>
  );
}

/** blance_record10: my OTC orders as buyer or seller, by state, each with its steps and times; a tap opens the order. */
export default function MyOrdersScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [role, setRole] = useState<OtcRole>(params.get('role') === 'seller' ? 'seller' : 'buyer');
  const [state, setState] = useState<OtcOrderState | typeof ALL>(ALL);
  const fetchPage = useCallback(
    (page: number, pageSize: number) => {
      const query = { page, pageSize, ...(state === ALL ? {} : { state }) };
      return role === 'buyer' ? listMyBuyOrders(query) : listMySellOrders(query);
    },
    [role, state],
  );
  // Every step of an order sends `otc.order`, which invalidates the OTC domain.
  const list = usePagedQuery(otcKeys.myOrders(role, state === ALL ? undefined : state), fetchPage);
  return (
    <div className="records-screen otc-records">
      <div className="otc-segment">
        <Segmented
          block
          value={role}
          onChange={(value) => setRole(value as OtcRole)}
          options={[
            { value: 'buyer', label: <span data-testid="otc-orders-buy">{t('otc.roles.buyer')}</span> },
            { value: 'seller', label: <span data-testid="otc-orders-sell">{t('otc.roles.seller')}</span> },
          ]}
          data-testid="otc-orders-role"
        />
      </div>
      <CapsuleTabs
        activeKey={state}
        onChange={(key) => setState(key as OtcOrderState | typeof ALL)}
        className="record-filter"
        data-testid="otc-order-state-filter"
      >
        {[ALL, ...OTC_ORDER_STATES].map((key) => (
          <CapsuleTabs.Tab key={key} title={key === ALL ? t('otc.allStates') : t(`otc.orderStates.${key as OtcOrderState}`)} />
        ))}
      </CapsuleTabs>
      <PagedList {...list} testId="otc-orders" renderItem={(order) => <OrderRow key={order.id} order={order} />} />
    </div>
  );
}
