import {
  bannerResponse,
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
