import type { ArticleType, Locale } from '@custos/contract';

/** Query keys of operator content (decision 023); each holds the language it was read in. */
export const contentKeys = {
  all: ['content'] as const,
  banners: (locale: Locale) => [...contentKeys.all, 'banners', locale] as const,
  notices: (locale: Locale) => [...contentKeys.all, 'notices', locale] as const,
  news: (locale: Locale, type: ArticleType) => [...contentKeys.all, 'news', locale, type] as const,
  latest: (locale: Locale, type: ArticleType) => [...contentKeys.all, 'latest', locale, type] as const,
  detail: (locale: Locale, id: string) => [...contentKeys.all, 'detail', locale, id] as const,
  unread: (locale: Locale) => [...contentKeys.all, 'unread', locale] as const,
  helpCategories: (locale: Locale) => [...contentKeys.all, 'help', locale, 'categories'] as const,
  helpList: (locale: Locale, categoryId: string) => [...contentKeys.all, 'help', locale, 'list', categoryId] as const,
  helpSearch: (locale: Locale, q: string) => [...contentKeys.all, 'help', locale, 'search', q] as const,
  helpDetail: (locale: Locale, id: string) => [...contentKeys.all, 'help', locale, 'detail', id] as const,
  documents: (locale: Locale) => [...contentKeys.all, 'documents', locale] as const,
  document: (locale: Locale, url: string) => [...contentKeys.all, 'document', locale, url] as const,
};
