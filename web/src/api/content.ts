import {
  bannerResponse,
  documentItem,
  documentsResponse,
  helpCategoriesResponse,
  helpDetail,
  helpListResponse,
  helpSearchResponse,
  newsDetail,
  newsListResponse,
  newsUnreadResponse,
  noticeMarqueeResponse,
  type ArticleType,
} from '@custos/contract';
import { apiRequest } from '../lib/api/client';

export function getBanners() {
  return apiRequest({ method: 'GET', path: '/api/common/banner', data: bannerResponse });
}

export function getNotices() {
  return apiRequest({ method: 'GET', path: '/api/common/notice_marquee', data: noticeMarqueeResponse });
}

export function listNews(type: ArticleType, page: number, pageSize: number) {
  return apiRequest({ method: 'GET', path: '/api/common/news_list', query: { type, page, pageSize }, data: newsListResponse });
}

export function getNewsDetail(id: string) {
  return apiRequest({ method: 'GET', path: '/api/common/news_detail', query: { id }, data: newsDetail });
}

export function getNewsUnread() {
  return apiRequest({ method: 'GET', path: '/api/common/news_unread', data: newsUnreadResponse });
}

// ── Help centre and documents (decision 028) ──────────────────────────────────────────────────

export function listHelpCategories() {
  return apiRequest({ method: 'GET', path: '/api/common/help_categories', data: helpCategoriesResponse });
}

export function listHelp(categoryId: string) {
  return apiRequest({ method: 'GET', path: '/api/common/help_list', query: { categoryId }, data: helpListResponse });
}

export function searchHelp(q: string) {
  return apiRequest({ method: 'GET', path: '/api/common/help_search', query: { q }, data: helpSearchResponse });
}

export function getHelpDetail(id: string) {
  return apiRequest({ method: 'GET', path: '/api/common/help_detail', query: { id }, data: helpDetail });
}

export function listDocuments() {
  return apiRequest({ method: 'GET', path: '/api/common/documents', data: documentsResponse });
}

/** The document a viewer url names (the server refuses any url that is not a platform document). */
export function getDocument(url: string) {
  return apiRequest({ method: 'GET', path: '/api/common/document', query: { url }, data: documentItem });
}
