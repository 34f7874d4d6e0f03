import { useState } from 'react';
import { Button, List, Switch, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { HostingOrder, HostingPlan } from '@custos/contract';
import { displayMoney, percentOf } from '../../../lib/format/money';
import { showToast } from '../../../lib/toast';
import { setAutoRenew } from '../api/set-auto-renew';
import { ORDER_STATUS_COLOURS, autoRenewControl, daysProgress, orderStatusKey } from '../orders';
import { QuoteRow } from '../../../components/QuoteRow';

/** Taps on the row's own controls do not open the log. */
const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

/**
 * One custody order: plan, amount, rate, dates, days of interest, interest so far and status; an
 * active one has its auto-renew switch and "Redeem early". A tap elsewhere opens its log.
 */
export function OrderRow({
  order,
  plans,
  onChanged,
  onRedeem,
  onOpenLog,
}: {
  order: HostingOrder;
  plans: readonly HostingPlan[];
  onChanged: (order: HostingOrder) => void;
  onRedeem: (order: HostingOrder) => void;
  onOpenLog: (order: HostingOrder) => void;
}) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const renew = autoRenewControl(order, plans);
  const days = daysProgress(order);

  const toggle = (autoRenew: boolean) => {
    setSaving(true);
    setAutoRenew({ orderId: order.id, autoRenew })
      .then(
        (changed) => {
          onChanged(changed);
          showToast(t(changed.autoRenew ? 'hosting.order.autoRenewOn' : 'hosting.order.autoRenewOff'));
        },
        // The client has shown the server's message.
        () => undefined,
      )
      .finally(() => setSaving(false));
  };

  return (
    <List.Item
      data-testid="hosting-order"
      data-order-id={order.id}
      data-status={order.status}
      onClick={() => onOpenLog(order)}
      description={
        <div className="hosting-order-detail">
          <div data-testid="hosting-order-rate">{t('hosting.order.rate', { rate: percentOf(order.dailyRate) })}</div>
          <div data-testid="hosting-order-dates">{t('hosting.order.dates', { start: order.startDate, end: order.endDate })}</div>
          <QuoteRow
            label={t('hosting.order.daysLabel')}
            value={t('hosting.order.days', { accrued: days.accrued, period: days.period })}
            testId="hosting-order-days"
          />
          <QuoteRow
            label={t('hosting.order.interestSoFar')}
            value={`${displayMoney(order.interestSoFar)} USDT`}
            testId="hosting-order-interest"
          />
          {order.returnedAmount !== null && (
            <QuoteRow
              label={t('hosting.order.returned')}
              value={`${displayMoney(order.returnedAmount)} USDT`}
              testId="hosting-order-returned"
            />
          )}
          {order.penalty !== null && order.status === 'redeemed' && (
            <QuoteRow
              label={t('hosting.order.penalty')}
              value={`${displayMoney(order.penalty)} USDT`}
              testId="hosting-order-penalty"
            />
          )}
          {renew.shown && (
            <div className="hosting-order-actions" onClick={stop} role="presentation">
              <span className="hosting-order-renew">
                <span>{t('hosting.autoRenew')}</span>
                <Switch
                  checked={renew.checked}
                  disabled={renew.disabled}
                  loading={saving}
                  onChange={toggle}
                  data-testid="hosting-order-auto-renew"
                />
              </span>
              <Button
                size="small"
                color="danger"
                fill="outline"
                onClick={() => onRedeem(order)}
                data-testid="hosting-order-redeem"
              >
                {t('hosting.order.redeem')}
              </Button>
            </div>
          )}
        </div>
      }
      extra={
        <Tag color={ORDER_STATUS_COLOURS[order.status]} data-testid="hosting-order-status" data-status={order.status}>
          {t(orderStatusKey(order.status))}
        </Tag>
      }
    >
      <div className="record-title">
        <span data-testid="hosting-order-plan">{order.planName}</span>
        {order.renewedFromId !== null && (
          <Tag color="default" fill="outline" data-testid="hosting-order-renewal">
            {t('hosting.order.renewal')}
          </Tag>
        )}
      </div>
      <div className="record-amounts" data-testid="hosting-order-amount">
        {displayMoney(order.amount)} USDT
      </div>
    </List.Item>
  );
}
