import { PullToRefresh } from 'antd-mobile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { getUserAssets } from '../../../api/get-user-assets';
import { assetKeys } from '../../../api/keys';
import { AssetsSummary } from '../../../components/assets/AssetsSummary';
import { MoneyShortcuts } from '../../../components/assets/MoneyShortcuts';
import { BannerCarousel } from '../../../components/content/BannerCarousel';
import { LatestNews } from '../../../components/content/LatestNews';
import { NoticeMarquee } from '../../../components/content/NoticeMarquee';
import { contentKeys } from '../../../api/content-keys';
import { HomeQuotes } from '../../../components/quotes/HomeQuotes';
import { quoteKeys } from '../../../api/quotes-keys';

/**
 * index (tab 0): banners, the notice marquee, the total assets card, the money shortcuts and the
 * latest news (decision 026), and the quotes (decision 027).
 */
export default function HomeScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Live balance events invalidate the assets domain (app/live-invalidation.ts).
  const { data: assets = null, refetch } = useQuery({ queryKey: assetKeys.summary(), queryFn: getUserAssets });
  const queryClient = useQueryClient();

  return (
    <PullToRefresh
      onRefresh={async () => {
        await Promise.all([
          refetch(),
          queryClient.invalidateQueries({ queryKey: contentKeys.all }),
          queryClient.invalidateQueries({ queryKey: quoteKeys.all }),
        ]);
      }}
      pullingText={t('assets.pullToRefresh')}
      canReleaseText={t('assets.releaseToRefresh')}
      refreshingText={t('common.loading')}
      completeText={t('assets.refreshed')}
    >
      <div className="home-screen">
        <BannerCarousel />
        <NoticeMarquee />
        <AssetsSummary assets={assets} onOpen={() => void navigate('/pages/my/my')} />
        <HomeQuotes />
        <MoneyShortcuts />
        <LatestNews />
      </div>
    </PullToRefresh>
  );
}
