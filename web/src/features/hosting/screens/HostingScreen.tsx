import { useCallback, useEffect, useMemo, useState } from 'react';
import { DotLoading, ErrorBlock, List, Popup, PullToRefresh, Segmented, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { HostingConfig, HostingOrder, HostingPlan } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney, percentOf } from '../../../lib/format/money';
import { usePagedList } from '../../../lib/paging/use-paged-list';
import { getHostingConfig } from '../api/get-hosting-config';
import { listHostingOrders } from '../api/list-hosting-orders';
import { DepositForm } from '../components/DepositForm';
import { OrderLog } from '../components/OrderLog';
import { OrderRow } from '../components/OrderRow';
import { RedeemDialog } from '../components/RedeemDialog';
import { ORDER_SEGMENTS, endedOrdersPager, type OrderSegment } from '../orders';

const POPUP_BODY = { maxHeight: '85vh', overflowY: 'auto', borderTopLeftRadius: 12, borderTopRightRadius: 12 } as const;

/** Custody balance, cash balance and whether the member is valid (custody at or above the threshold). */
function SummaryCard({ config }: { config: HostingConfig }) {
  const { t } = useTranslation();
  return (
    <section className="hosting-summary" data-testid="hosting-summary">
      <div className="hosting-summary-head">
        <div className="assets-summary-label">{t('hosting.custodyBalance')}</div>
        {config.isValid && (
          <Tag color="success" data-testid="hosting-valid">
            {t('hosting.valid')}
          </Tag>
        )}
      </div>
      <div className="assets-summary-total" data-testid="hosting-custody-balance">
        {displayMoney(config.custodyBalance)}
        <span className="assets-summary-unit">USDT</span>
      </div>
      <div className="assets-summary-label">{t('hosting.cashBalance')}</div>
      <div className="assets-summary-part" data-testid="hosting-cash-balance">
        {displayMoney(config.cashBalance)} USDT
      </div>
      {!config.isValid && (
        <p className="hosting-valid-hint" data-testid="hosting-valid-hint">
          {t('hosting.validHint', { threshold: displayMoney(config.validThreshold) })}
        </p>
      )}
    </section>
  );
}

function PlanItem({ plan, onOpen }: { plan: HostingPlan; onOpen: (plan: HostingPlan) => void }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="hosting-plan"
      data-plan-id={plan.id}
      data-period={plan.periodDays}
      onClick={() => onOpen(plan)}
      description={
        <>
          <div data-testid="hosting-plan-period">{t('hosting.planPeriod', { days: plan.periodDays })}</div>
          <div data-testid="hosting-plan-limits">
            {t('hosting.planLimits', { min: displayMoney(plan.minAmount), max: displayMoney(plan.maxAmount) })}
          </div>
        </>
      }
      extra={
        <span className="hosting-plan-rate" data-testid="hosting-plan-rate">
          {t('hosting.planRate', { rate: percentOf(plan.dailyRate) })}
        </span>
      }
    >
      <span data-testid="hosting-plan-name">{plan.name}</span>
    </List.Item>
  );
}

/** index2 (tab 1): custody plans, the deposit calculator, and the member's orders with their logs. */
export default function HostingScreen() {
  const { t } = useTranslation();
  const [config, setConfig] = useState<HostingConfig | null>(null);
  const [load, setLoad] = useState<{ attempt: number; failed: boolean }>({ attempt: 0, failed: false });
  const [segment, setSegment] = useState<OrderSegment>('all');
  const [depositPlan, setDepositPlan] = useState<HostingPlan | null>(null);
  const [redeeming, setRedeeming] = useState<HostingOrder | null>(null);
  const [logOrder, setLogOrder] = useState<HostingOrder | null>(null);
  // Orders changed in place (auto-renew) since the list was loaded.
  const [changed, setChanged] = useState<Record<string, HostingOrder>>({});

  const refreshConfig = useCallback(
    () =>
      getHostingConfig().then(
        (value) => {
          setConfig(value);
          setLoad((previous) => ({ ...previous, failed: false }));
        },
        () => setLoad((previous) => ({ ...previous, failed: true })),
      ),
    [],
  );
  useEffect(() => {
    void refreshConfig();
  }, [refreshConfig, load.attempt]);

  const fetchPage = useMemo(() => {
    const all = (page: number, pageSize: number) => listHostingOrders({ page, pageSize });
    if (segment === 'ended') return endedOrdersPager(all);
    if (segment === 'active') return (page: number, pageSize: number) => listHostingOrders({ page, pageSize, status: 'active' });
    return all;
  }, [segment]);
  const orders = usePagedList(fetchPage);
  const { reload } = orders;

  const refreshAll = useCallback(async () => {
    setChanged({});
    reload();
    await refreshConfig();
  }, [reload, refreshConfig]);

  if (!config && load.failed) {
    return (
      <div className="recharge-failed" data-testid="hosting-config-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => setLoad((previous) => ({ attempt: previous.attempt + 1, failed: false }))}
        >
          {t('records.retry')}
        </button>
      </div>
    );
  }
  if (!config) {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }

  return (
    <PullToRefresh
      onRefresh={refreshAll}
      pullingText={t('assets.pullToRefresh')}
      canReleaseText={t('assets.releaseToRefresh')}
      refreshingText={t('common.loading')}
      completeText={t('assets.refreshed')}
    >
      <div className="hosting-screen">
        <SummaryCard config={config} />

        {config.plans.length === 0 ? (
          <ErrorBlock
            status="empty"
            className="record-empty"
            title={t('hosting.noPlans')}
            description=""
            data-testid="hosting-plans-empty"
          />
        ) : (
          <List header={t('hosting.plans')} className="hosting-plans" data-testid="hosting-plans">
            {config.plans.map((plan) => (
              <PlanItem key={plan.id} plan={plan} onOpen={setDepositPlan} />
            ))}
          </List>
        )}

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
              plans={config.plans}
              onChanged={(next) => setChanged((previous) => ({ ...previous, [next.id]: next }))}
              onRedeem={setRedeeming}
              onOpenLog={setLogOrder}
            />
          )}
        />
      </div>

      <Popup
        visible={depositPlan !== null}
        onMaskClick={() => setDepositPlan(null)}
        onClose={() => setDepositPlan(null)}
        destroyOnClose
        showCloseButton
        bodyStyle={POPUP_BODY}
      >
        {depositPlan && (
          <DepositForm
            key={depositPlan.id}
            plan={depositPlan}
            config={config}
            onDone={() => {
              setDepositPlan(null);
              void refreshAll();
            }}
          />
        )}
      </Popup>

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
        plans={config.plans}
        onClose={() => setRedeeming(null)}
        onDone={() => {
          setRedeeming(null);
          void refreshAll();
        }}
      />
    </PullToRefresh>
  );
}
