import { useCallback } from 'react';
import { List } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { ExchangeOrder } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney, displayRate } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { usePagedList } from '../../../lib/paging/use-paged-list';
import { listExchanges } from '../api/list-exchanges';

function OrderRow({ order }: { order: ExchangeOrder }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="exchange-order"
      description={
        <>
          <div>{t('exchange.price', { price: displayRate(order.price) })}</div>
          <div>
            {t('exchange.feeSplit', {
              fee: displayMoney(order.fee),
              fuel: displayMoney(order.feeFuel),
              usdt: displayMoney(order.feeUsdt),
            })}
          </div>
        </>
      }
    >
      <div className="record-title">
        <span>{t(order.direction === 'rab_to_usdt' ? 'exchange.rabToUsdt' : 'exchange.usdtToRab')}</span>
        <span className="record-time">{formatDateTime(order.createdAt)}</span>
      </div>
      <div className="record-amounts" data-testid="exchange-order-amounts">
        {`${displayMoney(order.fromAmount)} ${order.fromAsset} → ${displayMoney(order.toAmount)} ${order.toAsset}`}
      </div>
    </List.Item>
  );
}

/** blance_record3: exchange orders, newest first. */
export default function ExchangeRecordsScreen() {
  const fetchPage = useCallback((page: number, pageSize: number) => listExchanges({ page, pageSize }), []);
  const list = usePagedList(fetchPage);
  return (
    <div className="records-screen">
      <PagedList {...list} testId="exchange-orders" renderItem={(order) => <OrderRow key={order.id} order={order} />} />
    </div>
  );
}
