import {
  adminArticlesResponse,
  adminDocumentsResponse,
  adminHelpArticlesResponse,
  adminHelpCategoriesResponse,
  documentSettingsSchema,
  type DocumentKind,
  type DocumentVersionRequest,
  type HelpArticleRequest,
  type HelpCategoryRequest,
  adminBannersResponse,
  adminNoticesResponse,
  communityLinksResponse,
  contentImageResponse,
  contentPreviewResponse,
  emptyResponse,
  type ArticleRequest,
  type ArticleType,
  type BannerRequest,
  type CommunityLinksRequest,
  type NoticeRequest,
} from '@custos/contract';
import { z } from 'zod';
import { consoleRequest } from '../../../lib/api';

const saved = z.object({ id: z.string() });

export function uploadContentImage(contentBase64: string) {
  return consoleRequest({
    method: 'POST',
    path: '/api/admin/content/images',
    body: { contentBase64 },
    data: contentImageResponse,
  });
}

export function previewHtml(html: string) {
  return consoleRequest({ method: 'POST', path: '/api/admin/content/preview', body: { html }, data: contentPreviewResponse });
}

export function listBanners() {
  return consoleRequest({ method: 'GET', path: '/api/admin/content/banners', data: adminBannersResponse });
}
export function saveBanner(id: string | null, body: BannerRequest) {
  return consoleRequest({
    method: id ? 'PUT' : 'POST',
    path: id ? `/api/admin/content/banners/${encodeURIComponent(id)}` : '/api/admin/content/banners',
    body,
    data: saved,
  });
}
export function deleteBanner(id: string) {
  return consoleRequest({ method: 'DELETE', path: `/api/admin/content/banners/${encodeURIComponent(id)}`, data: emptyResponse });
}

export function listNotices() {
  return consoleRequest({ method: 'GET', path: '/api/admin/content/notices', data: adminNoticesResponse });
}
export function saveNotice(id: string | null, body: NoticeRequest) {
  return consoleRequest({
    method: id ? 'PUT' : 'POST',
    path: id ? `/api/admin/content/notices/${encodeURIComponent(id)}` : '/api/admin/content/notices',
    body,
    data: saved,
  });
}
export function deleteNotice(id: string) {
  return consoleRequest({ method: 'DELETE', path: `/api/admin/content/notices/${encodeURIComponent(id)}`, data: emptyResponse });
}

export function listArticles(type: ArticleType | undefined, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize), ...(type ? { type } : {}) });
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/content/articles?${parameters.toString()}`,
    data: adminArticlesResponse,
  });
}
export function saveArticle(id: string | null, body: ArticleRequest) {
  return consoleRequest({
    method: id ? 'PUT' : 'POST',
    path: id ? `/api/admin/content/articles/${encodeURIComponent(id)}` : '/api/admin/content/articles',
    body,
    data: saved,
  });
}
export function deleteArticle(id: string) {
  return consoleRequest({ method: 'DELETE', path: `/api/admin/content/articles/${encodeURIComponent(id)}`, data: emptyResponse });
}

export function getCommunityLinks() {
  return consoleRequest({ method: 'GET', path: '/api/admin/content/community_links', data: communityLinksResponse });
}
export function saveCommunityLinks(body: CommunityLinksRequest) {
  return consoleRequest({ method: 'PUT', path: '/api/admin/content/community_links', body, data: emptyResponse });
}

// ── Help centre and documents (decision 028) ──────────────────────────────────────────────────

export function listHelpCategories() {
  return consoleRequest({ method: 'GET', path: '/api/admin/content/help_categories', data: adminHelpCategoriesResponse });
}
export function saveHelpCategory(id: string | null, body: HelpCategoryRequest) {
  return consoleRequest({
    method: id ? 'PUT' : 'POST',
    path: id ? `/api/admin/content/help_categories/${encodeURIComponent(id)}` : '/api/admin/content/help_categories',
    body,
    data: saved,
  });
}
export function deleteHelpCategory(id: string) {
  return consoleRequest({
    method: 'DELETE',
    path: `/api/admin/content/help_categories/${encodeURIComponent(id)}`,
    data: emptyResponse,
  });
}

export function listHelpArticles(categoryId: string | undefined, page: number, pageSize: number) {
  const parameters = new URLSearchParams({
    page: String(page),
    pageSize: String(pageSize),
    ...(categoryId ? { categoryId } : {}),
  });
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/content/help_articles?${parameters.toString()}`,
    data: adminHelpArticlesResponse,
  });
}
export function saveHelpArticle(id: string | null, body: HelpArticleRequest) {
  return consoleRequest({
    method: id ? 'PUT' : 'POST',
    path: id ? `/api/admin/content/help_articles/${encodeURIComponent(id)}` : '/api/admin/content/help_articles',
    body,
    data: saved,
  });
}
export function deleteHelpArticle(id: string) {
  return consoleRequest({
    method: 'DELETE',
    path: `/api/admin/content/help_articles/${encodeURIComponent(id)}`,
    data: emptyResponse,
  });
}

export function listDocuments() {
  return consoleRequest({ method: 'GET', path: '/api/admin/content/documents', data: adminDocumentsResponse });
}
export function createDocument(kind: DocumentKind) {
  return consoleRequest({ method: 'POST', path: '/api/admin/content/documents', body: { kind }, data: saved });
}
export function uploadDocumentVersion(documentId: string, body: DocumentVersionRequest) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/content/documents/${encodeURIComponent(documentId)}/versions`,
    body,
    data: z.object({ id: z.string(), version: z.number().int() }),
  });
}
export function setDocumentVersionPublished(versionId: string, published: boolean) {
  return consoleRequest({
    method: 'PUT',
    path: `/api/admin/content/document_versions/${encodeURIComponent(versionId)}`,
    body: { published },
    data: emptyResponse,
  });
}
export function getDocumentSettings() {
  return consoleRequest({ method: 'GET', path: '/api/admin/content/document_settings', data: documentSettingsSchema });
}
export function saveDocumentSettings(maxBytes: number) {
  return consoleRequest({ method: 'PUT', path: '/api/admin/content/document_settings', body: { maxBytes }, data: emptyResponse });
}
