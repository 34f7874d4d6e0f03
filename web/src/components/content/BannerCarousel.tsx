import { Swiper } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { currentLocale } from '../../lib/i18n/i18n';
import { getBanners } from '../../api/content';
import { contentKeys } from '../../api/content-keys';
import { openContentLink } from './content-link';

/** Home's banners, as the operator ordered and scheduled them; nothing at all when none is showing. */
export function BannerCarousel() {
  const navigate = useNavigate();
  const locale = currentLocale();
  const { data: banners = [] } = useQuery({ queryKey: contentKeys.banners(locale), queryFn: getBanners });
  if (banners.length === 0) return null;
  return (
    <div className="home-banners" data-testid="home-banners">
      <Swiper autoplay={banners.length > 1} loop={banners.length > 1} autoplayInterval={5000}>
        {banners.map((banner) => (
          <Swiper.Item key={banner.id}>
            <button
              type="button"
              className="home-banner"
              data-testid="home-banner"
              data-locale={banner.locale}
              onClick={() => openContentLink(banner.link, (path) => void navigate(path))}
            >
              <img src={banner.imageUrl} alt={banner.title} />
              <span className="home-banner-title">{banner.title}</span>
            </button>
          </Swiper.Item>
        ))}
      </Swiper>
    </div>
  );
}
