import { List } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ArticleType } from '@custos/contract';
import { formatDateTime } from '../../lib/format/time';
import { currentLocale } from '../../lib/i18n/i18n';
import { getNewsUnread, listNews } from '../../api/content';
import { contentKeys } from '../../api/content-keys';
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
    <List
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
        <List.Item>{t('content.noNews')}</List.Item>
      ) : (
        items.map((item) => (
          <List.Item
            key={item.id}
            data-testid="home-news-item"
            data-locale={item.locale}
            description={formatDateTime(item.publishedAt)}
            onClick={() => void navigate(`/pages/index/index5?tab=${type}&id=${item.id}`)}
          >
            {item.title}
          </List.Item>
        ))
      )}
    </List>
  );
}

/** Home: the latest market and financial news, and the way to all news with the unread announcements. */
export function LatestNews() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const locale = currentLocale();
  const { data: unread } = useQuery({ queryKey: contentKeys.unread(locale), queryFn: getNewsUnread });
  return (
    <div className="home-news">
      <List>
        <List.Item onClick={() => void navigate('/pages/index/index5')} data-testid="home-announcements">
          <UnreadBadge count={unread?.announcements ?? 0} testId="home-announcements-badge">
            <span className="home-announcements-label">{t('content.types.announcement')}</span>
          </UnreadBadge>
        </List.Item>
      </List>
      {HOME_TYPES.map((type) => (
        <LatestOf key={type} type={type} />
      ))}
    </div>
  );
}
