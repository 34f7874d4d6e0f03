import { useCallback } from 'react';
import { List } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { HostingOrder } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { usePagedList } from '../../../lib/paging/use-paged-list';
import { listHostingLog } from '../api/list-hosting-log';
import { logAmountSign, logEventKey, withLogIds, type LogRow } from '../orders';

function LogLine({ item }: { item: LogRow }) {
  const { t } = useTranslation();
  const plus = logAmountSign(item.event) === 'plus';
  return (
    <List.Item
      data-testid="hosting-log-item"
      data-event={item.event}
      description={
        <>
          {item.day && <div data-testid="hosting-log-day">{t('hosting.log.day', { day: item.day })}</div>}
          <div className="record-time">{formatDateTime(item.at)}</div>
        </>
      }
      extra={
        item.amount !== null && (
          <span className={plus ? 'amount-plus' : undefined} data-testid="hosting-log-amount">
            {plus ? '+' : ''}
            {displayMoney(item.amount)} USDT
          </span>
        )
      }
    >
      <span data-testid="hosting-log-event">{t(logEventKey(item.event))}</span>
    </List.Item>
  );
}

/** An order's history, newest first: deposited, each day's interest, renewed, ended, redeemed, auto-renew. */
export function OrderLog({ order }: { order: HostingOrder }) {
  const { t } = useTranslation();
  const fetchPage = useCallback(
    (page: number, pageSize: number) => listHostingLog({ orderId: order.id, page, pageSize }).then(withLogIds),
    [order.id],
  );
  const list = usePagedList(fetchPage);
  return (
    <div className="hosting-log" data-testid="hosting-log-popup" data-order-id={order.id}>
      <div className="hosting-deposit-title">{t('hosting.log.title', { plan: order.planName })}</div>
      <div className="hosting-deposit-terms">
        {t('hosting.order.dates', { start: order.startDate, end: order.endDate })} · {displayMoney(order.amount)} USDT
      </div>
      <PagedList {...list} testId="hosting-log" renderItem={(item) => <LogLine key={item.id} item={item} />} />
    </div>
  );
}
