import { useEffect, useMemo, useRef, useState } from 'react';
import { Popup, Segmented } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { HostingOrder, HostingPlan } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { usePagedList } from '../../../lib/paging/use-paged-list';
import { listHostingOrders } from '../api/list-hosting-orders';
import { ORDER_SEGMENTS, endedOrdersPager, type OrderSegment } from '../orders';
import { OrderLog } from './OrderLog';
import { OrderRow } from './OrderRow';
import { POPUP_BODY } from './popup-style';
import { RedeemDialog } from './RedeemDialog';

/**
 * The member's custody orders by segment (all, active, ended), each with its auto-renew switch and
 * early redemption; a tap opens the order's log. Used by the Hosting tab and the custody orders
 * screen (blance_record1). A new `refreshToken` loads the list again.
 */
export function OrdersPanel({
  plans,
  refreshToken,
  onRedeemed,
}: {
  plans: readonly HostingPlan[];
  refreshToken: number;
  /** Money went back to cash: balances shown elsewhere on the screen changed. */
  onRedeemed?: () => void;
}) {
  const { t } = useTranslation();
  const [segment, setSegment] = useState<OrderSegment>('all');
  const [redeeming, setRedeeming] = useState<HostingOrder | null>(null);
  const [logOrder, setLogOrder] = useState<HostingOrder | null>(null);
  // Orders changed in place (auto-renew) since the list was loaded.
  const [changed, setChanged] = useState<Record<string, HostingOrder>>({});

  const fetchPage = useMemo(() => {
    const all = (page: number, pageSize: number) => listHostingOrders({ page, pageSize });
    if (segment === 'ended') return endedOrdersPager(all);
    if (segment === 'active') return (page: number, pageSize: number) => listHostingOrders({ page, pageSize, status: 'active' });
    return all;
  }, [segment]);
  const orders = usePagedList(fetchPage);
  const { reload } = orders;

  // The screen asked for fresh data (pull to refresh, a deposit made): start the list again.
  const shownToken = useRef(refreshToken);
  useEffect(() => {
    if (shownToken.current === refreshToken) return;
    shownToken.current = refreshToken;
    setChanged({});
    reload();
  }, [refreshToken, reload]);

  return (
    <>
      <div className="hosting-orders-head">
        <div className="hosting-orders-title">{t('hosting.myOrders')}</div>
        <Segmented
          block
          value={segment}
          options={ORDER_SEGMENTS.map((value) => ({
            value,
            label: <span data-testid={`hosting-segment-${value}`}>{t(`hosting.segments.${value}`)}</span>,
          }))}
          onChange={(value) => {
            setChanged({});
            setSegment(value as OrderSegment);
          }}
          data-testid="hosting-order-segment"
        />
      </div>
      <PagedList
        {...orders}
        testId="hosting-orders"
        renderItem={(order) => (
          <OrderRow
            key={order.id}
            order={changed[order.id] ?? order}
            plans={plans}
            onChanged={(next) => setChanged((previous) => ({ ...previous, [next.id]: next }))}
            onRedeem={setRedeeming}
            onOpenLog={setLogOrder}
          />
        )}
      />

      <Popup
        visible={logOrder !== null}
        onMaskClick={() => setLogOrder(null)}
        onClose={() => setLogOrder(null)}
        destroyOnClose
        showCloseButton
        bodyStyle={POPUP_BODY}
      >
        {logOrder && <OrderLog key={logOrder.id} order={logOrder} />}
      </Popup>

      <RedeemDialog
        order={redeeming}
        onClose={() => setRedeeming(null)}
        onDone={() => {
          setRedeeming(null);
          setChanged({});
          reload();
          onRedeemed?.();
        }}
      />
    </>
  );
}
