import { useCallback, useEffect, useState } from 'react';
import { DotLoading, PullToRefresh } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { HostingConfig } from '@custos/contract';
import { displayMoney } from '../../../lib/format/money';
import { getHostingConfig } from '../api/get-hosting-config';
import { OrdersPanel } from '../components/OrdersPanel';

/**
 * blance_record1: the member's custody orders with their logs (the Hosting tab's list on its own
 * page): by segment, auto-renew and early redemption on active orders, a tap opens an order's log.
 */
export default function CustodyOrdersScreen() {
  const { t } = useTranslation();
  const [config, setConfig] = useState<HostingConfig | null>(null);
  const [load, setLoad] = useState<{ attempt: number; failed: boolean }>({ attempt: 0, failed: false });
  const [ordersToken, setOrdersToken] = useState(0);

  // The open plans decide whether auto-renew may be turned on.
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
      <div className="recharge-failed" data-testid="custody-orders-failed">
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
      <div className="hosting-screen" data-testid="custody-orders-screen">
        <div className="records-balance" data-testid="custody-orders-balance">
          <span>{t('hosting.custodyBalance')}</span>
          <span>{displayMoney(config.custodyBalance)} USDT</span>
        </div>
        <OrdersPanel plans={config.plans} refreshToken={ordersToken} onRedeemed={() => void refreshConfig()} />
      </div>
    </PullToRefresh>
  );
}
