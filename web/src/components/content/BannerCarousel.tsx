import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '../../lib/router/router';
import { currentLocale } from '../../lib/i18n/i18n';
import { getBanners } from '../../api/content';
import { contentKeys } from '../../api/content-keys';
import { SnapCarousel } from '../carousel/SnapCarousel';
import { openContentLink } from './content-link';

/** Home's banners, as the operator ordered and scheduled them; nothing at all when none is showing. */
export function BannerCarousel() {
  const navigate = useNavigate();
  const locale = currentLocale();
  const { data: banners = [] } = useQuery({ queryKey: contentKeys.banners(locale), queryFn: getBanners });
  if (banners.length === 0) return null;
  return (
    <div className="home-banners" data-testid="home-banners">
      <SnapCarousel
        intervalMs={5000}
        slides={banners.map((banner, index) => (
          <button
            key={banner.id}
            type="button"
            className="home-banner"
            data-testid="home-banner"
            data-locale={banner.locale}
            onClick={() => openContentLink(banner.link, (path) => void navigate(path))}
          >
            {/* The first banner is what Home shows largest: fetched first; the others after it. */}
            <img src={banner.imageUrl} alt={banner.title} fetchPriority={index === 0 ? 'high' : 'low'} decoding="async" />
            <span className="home-banner-title">{banner.title}</span>
          </button>
        ))}
      />
    </div>
  );
}
