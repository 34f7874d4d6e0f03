import { useState } from 'react';
import { ErrorBlock, List, SearchBar } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useSearchParams } from '../../../lib/router/router';
import { HELP_QUERY_MAX_LENGTH, type HelpArticleSummary, type HelpSearchItem } from '@custos/contract';
import { getHelpDetail, listHelp, listHelpCategories, searchHelp } from '../../../api/content';
import { contentKeys } from '../../../api/content-keys';
import { formatDateTime } from '../../../lib/format/time';
import { currentLocale } from '../../../lib/i18n/i18n';

type Open = (id: string) => void;

function ArticleRow({ item, onOpen }: { item: HelpArticleSummary | HelpSearchItem; onOpen: Open }) {
  return (
    <List.Item
      data-testid="help-item"
      data-help-id={item.id}
      data-locale={item.locale}
      description={'snippet' in item ? <span data-testid="help-snippet">{item.snippet}</span> : undefined}
      onClick={() => onOpen(item.id)}
    >
      <span data-testid="help-title">{item.title}</span>
    </List.Item>
  );
}

/** A category's articles, opened under its name. */
function CategoryArticles({ categoryId, onOpen }: { categoryId: string; onOpen: Open }) {
  const locale = currentLocale();
  const { data } = useQuery({ queryKey: contentKeys.helpList(locale, categoryId), queryFn: () => listHelp(categoryId) });
  return (
    <>
      {(data ?? []).map((item) => (
        <ArticleRow key={item.id} item={item} onOpen={onOpen} />
      ))}
    </>
  );
}

function Categories({ onOpen }: { onOpen: Open }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const [expanded, setExpanded] = useState<string | null>(null);
  const { data, isPending } = useQuery({ queryKey: contentKeys.helpCategories(locale), queryFn: listHelpCategories });
  if (isPending) return <div className="help-empty">{t('common.loading')}</div>;
  if (!data || data.length === 0) return <ErrorBlock status="empty" title={t('help.empty')} description="" />;
  return (
    <div data-testid="help-categories">
      {data.map((category) => (
        <List
          key={category.id}
          header={
            <button
              type="button"
              className="help-category"
              data-testid="help-category"
              data-locale={category.locale}
              aria-expanded={expanded === category.id}
              onClick={() => setExpanded(expanded === category.id ? null : category.id)}
            >
              {category.name} <span className="help-count">{category.articleCount}</span>
            </button>
          }
        >
          {expanded === category.id && <CategoryArticles categoryId={category.id} onOpen={onOpen} />}
        </List>
      ))}
    </div>
  );
}

function SearchResults({ q, onOpen }: { q: string; onOpen: Open }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { data, isPending, isError } = useQuery({ queryKey: contentKeys.helpSearch(locale, q), queryFn: () => searchHelp(q) });
  if (isPending) return <div className="help-empty">{t('common.loading')}</div>;
  if (isError || !data || data.length === 0)
    return (
      <div data-testid="help-no-results">
        <ErrorBlock status="empty" title={t('help.noResults', { q })} description="" />
      </div>
    );
  return (
    <List header={t('help.results', { count: data.length })} data-testid="help-results">
      {data.map((item) => (
        <ArticleRow key={item.id} item={item} onOpen={onOpen} />
      ))}
    </List>
  );
}

/** One help article: the server's sanitised HTML (decision 028), shown as it was stored. */
function HelpArticle({ id }: { id: string }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { data, isError } = useQuery({ queryKey: contentKeys.helpDetail(locale, id), queryFn: () => getHelpDetail(id) });
  if (isError) return <ErrorBlock status="empty" title={t('help.notFound')} description="" />;
  if (!data) return <div className="news-article">{t('common.loading')}</div>;
  return (
    <article className="news-article" data-testid="help-article" data-locale={data.locale}>
      <div className="news-article-time">{data.categoryName}</div>
      <h2 data-testid="help-article-title">{data.title}</h2>
      <div className="news-article-time">{formatDateTime(data.updatedAt)}</div>
      {/* Sanitised on the server when it was saved: an allow-list of tags, no scripts or handlers. */}
      <div className="news-article-body" data-testid="help-article-body" dangerouslySetInnerHTML={{ __html: data.bodyHtml }} />
    </article>
  );
}

/** second1: the help centre — categories and their articles, search, and an article. */
export default function HelpScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const q = (params.get('q') ?? '').trim().slice(0, HELP_QUERY_MAX_LENGTH);
  const [text, setText] = useState(q);
  const open: Open = (articleId) => setParams({ ...(q ? { q } : {}), id: articleId });

  if (id) return <HelpArticle id={id} />;
  return (
    <div className="help-screen">
      <div data-testid="help-search">
        <SearchBar
          placeholder={t('help.searchPlaceholder')}
          value={text}
          maxLength={HELP_QUERY_MAX_LENGTH}
          onChange={setText}
          onSearch={(value) => setParams(value.trim() ? { q: value.trim() } : {}, { replace: true })}
          onClear={() => setParams({}, { replace: true })}
        />
      </div>
      {q ? <SearchResults q={q} onOpen={open} /> : <Categories onOpen={open} />}
    </div>
  );
}
