import { ErrorBlock, List, Tabs } from 'antd-mobile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n/translator';
import { useSearchParams } from '../../../lib/router/router';
import { ARTICLE_TYPES, type ArticleType, type NewsSummary } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { formatDateTime } from '../../../lib/format/time';
import { currentLocale } from '../../../lib/i18n/i18n';
import { usePagedQuery } from '../../../lib/paging/use-paged-query';
import { getNewsDetail, getNewsUnread, listNews } from '../../../api/content';
import { contentKeys } from '../../../api/content-keys';
import { UnreadBadge } from '../../../components/content/UnreadBadge';

function isArticleType(value: string | null): value is ArticleType {
  return (ARTICLE_TYPES as readonly string[]).includes(value ?? '');
}

function NewsRow({ item, onOpen }: { item: NewsSummary; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="news-item"
      data-news-id={item.id}
      data-locale={item.locale}
      data-unread={item.unread}
      prefix={item.coverUrl ? <img className="news-cover" src={item.coverUrl} alt="" /> : undefined}
      description={
        <>
          {item.summary && <div className="news-summary">{item.summary}</div>}
          <div>{formatDateTime(item.publishedAt)}</div>
        </>
      }
      extra={item.unread ? <span className="news-unread">{t('content.unread')}</span> : undefined}
      onClick={onOpen}
    >
      <span data-testid="news-title">{item.title}</span>
    </List.Item>
  );
}

function NewsList({ type, onOpen }: { type: ArticleType; onOpen: (id: string) => void }) {
  const locale = currentLocale();
  const list = usePagedQuery(contentKeys.news(locale, type), (page, pageSize) => listNews(type, page, pageSize));
  return (
    <PagedList
      items={list.items}
      hasMore={list.hasMore}
      generation={list.generation}
      loadMore={list.loadMore}
      renderItem={(item) => <NewsRow key={item.id} item={item} onOpen={() => onOpen(item.id)} />}
      testId="news-list"
    />
  );
}

/** One article: the server's sanitised HTML (decision 026), shown as it was stored. */
function NewsArticle({ id }: { id: string }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const queryClient = useQueryClient();
  const { data, isError } = useQuery({ queryKey: contentKeys.detail(locale, id), queryFn: () => getNewsDetail(id) });
  // Opening it marked it read: the badge and the lists read again.
  useEffect(() => {
    if (data)
      void queryClient.invalidateQueries({ queryKey: contentKeys.all, predicate: (query) => query.queryKey[1] !== 'detail' });
  }, [data, queryClient]);
  if (isError) return <ErrorBlock status="empty" title={t('content.notFound')} description="" />;
  if (!data) return <div className="news-article">{t('common.loading')}</div>;
  return (
    <article className="news-article" data-testid="news-article" data-locale={data.locale}>
      <h2 data-testid="news-article-title">{data.title}</h2>
      <div className="news-article-time">{formatDateTime(data.publishedAt)}</div>
      {data.coverUrl && <img className="news-article-cover" src={data.coverUrl} alt="" />}
      {/* Sanitised on the server when it was saved: an allow-list of tags, no scripts or handlers. */}
      <div className="news-article-body" data-testid="news-article-body" dangerouslySetInnerHTML={{ __html: data.bodyHtml }} />
    </article>
  );
}

/** index5: announcements, market news and financial news, paged; unread announcements badged. */
export default function NewsScreen() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: ArticleType = isArticleType(tabParam) ? tabParam : 'announcement';
  const id = params.get('id');
  const { data: unread } = useQuery({ queryKey: contentKeys.unread(locale), queryFn: getNewsUnread });

  if (id) return <NewsArticle id={id} />;
  return (
    <div className="news-screen">
      <Tabs activeKey={tab} onChange={(key) => setParams({ tab: key }, { replace: true })}>
        {ARTICLE_TYPES.map((type) => (
          <Tabs.Tab
            key={type}
            title={
              type === 'announcement' ? (
                <UnreadBadge count={unread?.announcements ?? 0} testId="news-unread-badge">
                  <span data-testid={`news-tab-${type}`}>{t(`content.types.${type}`)}</span>
                </UnreadBadge>
              ) : (
                <span data-testid={`news-tab-${type}`}>{t(`content.types.${type}`)}</span>
              )
            }
          />
        ))}
      </Tabs>
      <NewsList key={tab} type={tab} onOpen={(articleId) => setParams({ tab, id: articleId })} />
    </div>
  );
}
