import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n/translator';
import { useNavigate } from '../../lib/router/router';
import type { ArticleType } from '@custos/contract';
import { formatDateTime } from '../../lib/format/time';
import { currentLocale } from '../../lib/i18n/i18n';
import { getNewsUnread, listNews } from '../../api/content';
import { contentKeys } from '../../api/content-keys';
import { PlainList, PlainListItem } from '../plain-list/PlainList';
import { UnreadBadge } from './UnreadBadge';

const LATEST = 3;
const HOME_TYPES: ArticleType[] = ['market', 'financial'];

function LatestOf({ type }: { type: ArticleType }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const locale = currentLocale();
  const { data } = useQuery({ queryKey: contentKeys.latest(locale, type), queryFn: () => listNews(type, 1, LATEST) });
  const items = data?.items ?? [];
  return (
    <PlainList
      header={
        <div className="home-news-header">
          <span>{t(`content.types.${type}`)}</span>
          <button type="button" className="link-button" onClick={() => void navigate(`/pages/index/index5?tab=${type}`)}>
            {t('content.more')}
          </button>
        </div>
      }
      data-testid={`home-news-${type}`}
    >
      {items.length === 0 ? (
        <PlainListItem>{t('content.noNews')}</PlainListItem>
      ) : (
        items.map((item) => (
          <PlainListItem
            key={item.id}
            to={`/pages/index/index5?tab=${type}&id=${item.id}`}
            data-testid="home-news-item"
            data-locale={item.locale}
            description={formatDateTime(item.publishedAt)}
          >
            {item.title}
          </PlainListItem>
        ))
      )}
    </PlainList>
  );
}

/** Home: the latest market and financial news, and the way to all news with the unread announcements. */
export function LatestNews() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { data: unread } = useQuery({ queryKey: contentKeys.unread(locale), queryFn: getNewsUnread });
  return (
    <div className="home-news">
      <PlainList>
        <PlainListItem to="/pages/index/index5" data-testid="home-announcements">
          <UnreadBadge count={unread?.announcements ?? 0} testId="home-announcements-badge">
            <span className="home-announcements-label">{t('content.types.announcement')}</span>
          </UnreadBadge>
        </PlainListItem>
      </PlainList>
      {HOME_TYPES.map((type) => (
        <LatestOf key={type} type={type} />
      ))}
    </div>
  );
}
