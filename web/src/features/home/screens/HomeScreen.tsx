import { usePrefetchQuery, useQuery, useQueryClient } from '@tanstack/react-query';
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
import { PullToRefresh } from '../../../components/pull-refresh/PullToRefresh';

/**
 * index (tab 0): banners, the notice marquee, the total assets card, the money shortcuts and the
 * latest news (decision 026), and the quotes (decision 027).
 */
export default function HomeScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The total is what Home shows largest (its largest contentful paint): its call goes out first,
  // during this render, before the banners', notices', quotes' and news' calls that the children's
  // effects start (decision 042).
  usePrefetchQuery({ queryKey: assetKeys.summary(), queryFn: getUserAssets });
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
      texts={{
        pulling: t('assets.pullToRefresh'),
        canRelease: t('assets.releaseToRefresh'),
        refreshing: t('common.loading'),
        complete: t('assets.refreshed'),
      }}
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
