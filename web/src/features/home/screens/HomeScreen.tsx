import { PullToRefresh } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { getUserAssets } from '../../../api/get-user-assets';
import { assetKeys } from '../../../api/keys';
import { AssetsSummary } from '../../../components/assets/AssetsSummary';
import { MoneyShortcuts } from '../../../components/assets/MoneyShortcuts';

/**
 * index (tab 0): the total assets card and the money shortcuts. Quotes, banners, notices and news
 * arrive with their own features.
 */
export default function HomeScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Live balance events invalidate the assets domain (app/live-invalidation.ts).
  const { data: assets = null, refetch } = useQuery({ queryKey: assetKeys.summary(), queryFn: getUserAssets });

  return (
    <PullToRefresh
      onRefresh={async () => {
        await refetch();
      }}
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
