import { usePrefetchQuery, useQuery, useQueryClient, type FetchQueryOptions } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
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

const assetsSummaryQuery = { queryKey: assetKeys.summary(), queryFn: getUserAssets };

/**
 * The total is what Home paints largest: a launch on Home fetches it before the first render
 * (the early file has sent its call with the page's code, the route's `launchCalls`; decision 047).
 */
export const launchQueries: readonly FetchQueryOptions[] = [assetsSummaryQuery];

/** The total assets card; its own component, so the answer re-renders the card and not all of Home. */
function HomeAssets() {
  const navigate = useNavigate();
  // Live balance events invalidate the assets domain (app/live-invalidation.ts).
  const { data: assets = null } = useQuery(assetsSummaryQuery);
  return <AssetsSummary assets={assets} onOpen={() => void navigate('/pages/my/my')} />;
}

/**
 * index (tab 0): banners, the notice marquee, the total assets card, the money shortcuts and the
 * latest news (decision 026), and the quotes (decision 027).
 */
export default function HomeScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The total is what Home shows largest (its largest contentful paint): its call goes out first,
  // during this render, before the calls the children's effects start (banners, notices, quotes,
  // news; decision 042).
  usePrefetchQuery(assetsSummaryQuery);

  return (
    <PullToRefresh
      onRefresh={async () => {
        await Promise.all([
          queryClient.refetchQueries({ queryKey: assetKeys.summary(), exact: true }),
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
        <HomeAssets />
        <HomeQuotes />
        <MoneyShortcuts />
        <LatestNews />
      </div>
    </PullToRefresh>
  );
}
