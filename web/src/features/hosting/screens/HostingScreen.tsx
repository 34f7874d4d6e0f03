import { useCallback, useEffect, useState } from 'react';
import { DotLoading, ErrorBlock, List, Popup, PullToRefresh, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { HostingConfig, HostingPlan } from '@custos/contract';
import { displayMoney, percentOf } from '../../../lib/format/money';
import { getHostingConfig } from '../api/get-hosting-config';
import { DepositForm } from '../components/DepositForm';
import { OrdersPanel } from '../components/OrdersPanel';
import { POPUP_BODY } from '../components/popup-style';

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
  const [depositPlan, setDepositPlan] = useState<HostingPlan | null>(null);
  // Bumped to load the orders again.
  const [ordersToken, setOrdersToken] = useState(0);

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

  const refreshAll = useCallback(async () => {
    setOrdersToken((token) => token + 1);
    await refreshConfig();
  }, [refreshConfig]);

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

        <OrdersPanel plans={config.plans} refreshToken={ordersToken} onRedeemed={() => void refreshConfig()} />
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
    </PullToRefresh>
  );
}
