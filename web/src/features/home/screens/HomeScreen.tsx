import { useCallback, useEffect, useState } from 'react';
import { PullToRefresh } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { UserAssets } from '@custos/contract';
import { getUserAssets } from '../../../api/get-user-assets';
import { AssetsSummary } from '../../../components/assets/AssetsSummary';
import { MoneyShortcuts } from '../../../components/assets/MoneyShortcuts';
import { BALANCE_EVENTS, useLiveRefresh } from '../../../lib/live/use-live-refresh';

/**
 * index (tab 0): the total assets card and the money shortcuts. Quotes, banners, notices and news
 * arrive with their own features.
 */
export default function HomeScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [assets, setAssets] = useState<UserAssets | null>(null);

  const load = useCallback(() => getUserAssets().then(setAssets, () => undefined), []);
  useEffect(() => {
    void load();
  }, [load]);
  useLiveRefresh(BALANCE_EVENTS, () => void load());

  return (
    <PullToRefresh
      onRefresh={load}
      pullingText={t('assets.pullToRefresh')}
      canReleaseText={t('assets.releaseToRefresh')}
      refreshingText={t('common.loading')}
      completeText={t('assets.refreshed')}
    >
      <div className="home-screen">
        <AssetsSummary assets={assets} onOpen={() => void navigate('/pages/my/my')} />
        <MoneyShortcuts />
      </div>
    </PullToRefresh>
  );
}
