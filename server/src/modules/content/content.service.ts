import type { z } from 'zod';
import {
  contentImageUrl,
  type AdminArticle,
  type AdminBanner,
  type AdminNotice,
  type ArticleStatus,
  type ArticleType,
  type BannerItem,
  type Locale,
  type NewsDetail,
  type NewsSummary,
  type NoticeItem,
  type articleRequest,
  type bannerRequest,
  type communityLinksRequest,
  type noticeRequest,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { checkedImage } from '../../http/checked-image.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ArticleRow, ArticleTranslationRow, ContentRepository } from './content.repository.js';
import { auditedDelete, auditedSave, dateOf, iso, localise, recordChange } from './localised.js';
import { sanitizeRichText, sanitizedBodies } from './sanitize.js';

type BannerInput = z.output<typeof bannerRequest>;
type NoticeInput = z.output<typeof noticeRequest>;
type ArticleInput = z.output<typeof articleRequest>;
type CommunityLinksInput = z.output<typeof communityLinksRequest>;

function articleSnapshot(before: ArticleRow) {
  return { type: before.type, status: before.status, publishAt: iso(before.publishAt) };
}

/**
 * Banners, the notice marquee and news (decision 026). Operators with `content.manage` write them
 * (every change audited in its transaction); members read what is showing at the clock's now, in
 * their language or the platform default. Article bodies are sanitised here, on save.
 */
export class ContentService {
  constructor(
    private readonly db: Db,
    private readonly repository: ContentRepository,
    private readonly audit: AuditRepository,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly files: FileStore,
  ) {}

  /** The platform's now (the injected clock). */
  now(): Date {
    return this.clock.now();
  }

  private async locales(locale: Locale): Promise<{ locale: Locale; defaultLocale: Locale; both: string[] }> {
    const { defaultLocale } = await this.settings.get('site');
    return { locale, defaultLocale, both: [...new Set([locale, defaultLocale])] };
  }

  // ── Images ──────────────────────────────────────────────────────────────────────────────────

  async uploadImage(operatorId: string, contentBase64: string, origin: RequestOrigin) {
    const image = checkedImage(contentBase64);
    // The file first: a row never names bytes the store lacks (an orphan file is harmless).
    await this.files.put(image.content);
    const id = await this.db.transaction(async (tx) => {
      const inserted = await this.repository.insertImage(
        { contentType: image.contentType, sizeBytes: image.sizeBytes, sha256: image.sha256, uploadedBy: operatorId },
        tx,
      );
      await recordChange(this.audit, tx, {
        operatorId,
        action: 'content.image_uploaded',
        targetType: 'content_image',
        targetId: inserted,
        before: null,
        after: { contentType: image.contentType, sizeBytes: image.sizeBytes, sha256: image.sha256 },
        origin,
      });
      return inserted;
    });
    return { id, url: contentImageUrl(id) };
  }

  async image(id: string) {
    const image = await this.repository.image(id);
    if (!image) throw AppError.notFound();
    return image;
  }

  private async requireImages(ids: string[]): Promise<void> {
    if (!(await this.repository.imagesExist(ids))) throw AppError.badRequest('content.image_missing');
  }

  // ── Banners ─────────────────────────────────────────────────────────────────────────────────

  async bannersFor(locale: Locale): Promise<BannerItem[]> {
    const { defaultLocale } = await this.locales(locale);
    const rows = await this.repository.bannersShowing(this.clock.now());
    const translations = await this.repository.bannerTranslations(rows.map((row) => row.id));
    return localise(rows, translations, (entry) => entry.bannerId, locale, defaultLocale).map(({ row, translation }) => ({
      id: row.id,
      title: translation.title,
      imageUrl: contentImageUrl(translation.imageId),
      link: row.link,
      locale: translation.locale as Locale,
    }));
  }

  async listBanners(): Promise<AdminBanner[]> {
    const rows = await this.repository.allBanners();
    const translations = await this.repository.bannerTranslations(rows.map((row) => row.id));
    return rows.map((row) => ({
      id: row.id,
      link: row.link,
      sortOrder: row.sortOrder,
      startsAt: iso(row.startsAt),
      endsAt: iso(row.endsAt),
      translations: translations
        .filter((entry) => entry.bannerId === row.id)
        .map(({ locale, title, imageId }) => ({ locale: locale as Locale, title, imageId })),
      updatedAt: row.updatedAt.toISOString(),
    }));
  }

  async saveBanner(operatorId: string, id: string | null, input: BannerInput, origin: RequestOrigin): Promise<string> {
    await this.requireImages(input.translations.map((translation) => translation.imageId));
    const row = { link: input.link, sortOrder: input.sortOrder, startsAt: dateOf(input.startsAt), endsAt: dateOf(input.endsAt) };
    return auditedSave(this.db, this.audit, id, {
      operatorId,
      origin,
      targetType: 'banner',
      lock: (tx) => this.repository.lockBanner(tx, id!),
      snapshot: async (tx, before) => ({ ...before, translations: await this.repository.bannerTranslations([before.id], tx) }),
      save: (tx) => this.repository.saveBanner(tx, id, row, input.translations),
      action: (before) => (before ? 'content.banner_updated' : 'content.banner_created'),
      after: input,
    });
  }

  async deleteBanner(operatorId: string, id: string, origin: RequestOrigin): Promise<void> {
    await auditedDelete(this.db, this.audit, id, {
      operatorId,
      origin,
      targetType: 'banner',
      lock: (tx) => this.repository.lockBanner(tx, id),
      snapshot: async (tx, before) => ({ ...before, translations: await this.repository.bannerTranslations([id], tx) }),
      remove: (tx) => this.repository.deleteBanner(tx, id),
      action: 'content.banner_deleted',
    });
  }

  // ── Notices ─────────────────────────────────────────────────────────────────────────────────

  async noticesFor(locale: Locale): Promise<NoticeItem[]> {
    const { defaultLocale } = await this.locales(locale);
    const rows = await this.repository.noticesShowing(this.clock.now());
    const translations = await this.repository.noticeTranslations(rows.map((row) => row.id));
    return localise(rows, translations, (entry) => entry.noticeId, locale, defaultLocale).map(({ row, translation }) => ({
      id: row.id,
      text: translation.text,
      locale: translation.locale as Locale,
    }));
  }

  async listNotices(): Promise<AdminNotice[]> {
    const rows = await this.repository.allNotices();
    const translations = await this.repository.noticeTranslations(rows.map((row) => row.id));
    return rows.map((row) => ({
      id: row.id,
      sortOrder: row.sortOrder,
      startsAt: iso(row.startsAt),
      endsAt: iso(row.endsAt),
      translations: translations
        .filter((entry) => entry.noticeId === row.id)
        .map(({ locale, text }) => ({ locale: locale as Locale, text })),
      updatedAt: row.updatedAt.toISOString(),
    }));
  }

  async saveNotice(operatorId: string, id: string | null, input: NoticeInput, origin: RequestOrigin): Promise<string> {
    const row = { sortOrder: input.sortOrder, startsAt: dateOf(input.startsAt), endsAt: dateOf(input.endsAt) };
    return auditedSave(this.db, this.audit, id, {
      operatorId,
      origin,
      targetType: 'notice',
      lock: (tx) => this.repository.lockNotice(tx, id!),
      snapshot: async (tx, before) => ({ ...before, translations: await this.repository.noticeTranslations([before.id], tx) }),
      save: (tx) => this.repository.saveNotice(tx, id, row, input.translations),
      action: (before) => (before ? 'content.notice_updated' : 'content.notice_created'),
      after: input,
    });
  }

  async deleteNotice(operatorId: string, id: string, origin: RequestOrigin): Promise<void> {
    await auditedDelete(this.db, this.audit, id, {
      operatorId,
      origin,
      targetType: 'notice',
      lock: (tx) => this.repository.lockNotice(tx, id),
      snapshot: async (tx, before) => ({ ...before, translations: await this.repository.noticeTranslations([id], tx) }),
      remove: (tx) => this.repository.deleteNotice(tx, id),
      action: 'content.notice_deleted',
    });
  }

  // ── Articles ────────────────────────────────────────────────────────────────────────────────

  private summaryOf(row: ArticleRow, translation: ArticleTranslationRow, read: boolean): NewsSummary {
    return {
      id: row.id,
      type: row.type as ArticleType,
      title: translation.title,
      summary: translation.summary,
      coverUrl: row.coverImageId ? contentImageUrl(row.coverImageId) : null,
      publishedAt: row.publishAt!.toISOString(),
      locale: translation.locale as Locale,
      unread: row.type === 'announcement' && !read,
    };
  }

  async newsList(memberId: string, locale: Locale, type: ArticleType, page: number, pageSize: number) {
    const { defaultLocale, both } = await this.locales(locale);
    const { rows, total } = await this.repository.visibleArticles(type, this.clock.now(), both, pageSize, (page - 1) * pageSize);
    const ids = rows.map((row) => row.id);
    const translations = await this.repository.articleTranslations(ids);
    const read = await this.repository.readIds(memberId, ids);
    const items = localise(rows, translations, (entry) => entry.articleId, locale, defaultLocale).map(({ row, translation }) =>
      this.summaryOf(row, translation, read.has(row.id)),
    );
    return { items, total, page, pageSize };
  }

  /** One article as the member reads it; opening it counts as read. */
  async newsDetail(memberId: string, locale: Locale, id: string): Promise<NewsDetail> {
    const { defaultLocale, both } = await this.locales(locale);
    const row = await this.repository.visibleArticle(id, this.clock.now(), both);
    if (!row) throw AppError.notFound();
    const [shown] = localise(
      [row],
      await this.repository.articleTranslations([id]),
      (entry) => entry.articleId,
      locale,
      defaultLocale,
    );
    const translation = shown?.translation;
    if (!translation) throw AppError.notFound();
    await this.repository.markRead(memberId, id);
    return { ...this.summaryOf(row, translation, true), bodyHtml: translation.bodyHtml };
  }

  async unread(memberId: string, locale: Locale) {
    const { both } = await this.locales(locale);
    return { announcements: await this.repository.unreadAnnouncements(memberId, this.clock.now(), both) };
  }

  async listArticles(type: ArticleType | undefined, page: number, pageSize: number) {
    const { rows, total } = await this.repository.articlesForConsole(type, pageSize, (page - 1) * pageSize);
    const translations = await this.repository.articleTranslations(rows.map((row) => row.id));
    const items = rows.map((row): AdminArticle => ({
      id: row.id,
      type: row.type as ArticleType,
      status: row.status as ArticleStatus,
      publishAt: iso(row.publishAt),
      publishedAt: row.status === 'published' ? iso(row.publishAt) : null,
      coverImageId: row.coverImageId,
      translations: translations
        .filter((entry) => entry.articleId === row.id)
        .map(({ locale, title, summary, bodyHtml }) => ({ locale: locale as Locale, title, summary, bodyHtml })),
      updatedAt: row.updatedAt.toISOString(),
    }));
    return { items, total, page, pageSize };
  }

  async saveArticle(operatorId: string, id: string | null, input: ArticleInput, origin: RequestOrigin): Promise<string> {
    if (input.coverImageId) await this.requireImages([input.coverImageId]);
    const translations = sanitizedBodies(input.translations);
    // Publishing without a time publishes now (or keeps the time it was published at); the audit's
    // "after" is known only inside the transaction, so it is filled there.
    const after: Record<string, unknown> = {};
    return auditedSave(this.db, this.audit, id, {
      operatorId,
      origin,
      targetType: 'article',
      lock: (tx) => this.repository.lockArticle(tx, id!),
      snapshot: async (_tx, before) => articleSnapshot(before),
      save: (tx, before) => {
        const publishAt =
          dateOf(input.publishAt) ?? (input.status === 'published' ? (before?.publishAt ?? this.clock.now()) : null);
        const row = { type: input.type, status: input.status, publishAt, coverImageId: input.coverImageId };
        Object.assign(after, {
          type: row.type,
          status: row.status,
          publishAt: iso(publishAt),
          coverImageId: row.coverImageId,
          titles: Object.fromEntries(translations.map((translation) => [translation.locale, translation.title])),
        });
        return this.repository.saveArticle(tx, id, row, translations);
      },
      action: (before) =>
        !before
          ? 'content.article_created'
          : before.status !== 'published' && input.status === 'published'
            ? 'content.article_published'
            : 'content.article_updated',
      after,
    });
  }

  async deleteArticle(operatorId: string, id: string, origin: RequestOrigin): Promise<void> {
    await auditedDelete(this.db, this.audit, id, {
      operatorId,
      origin,
      targetType: 'article',
      lock: (tx) => this.repository.lockArticle(tx, id),
      snapshot: async (_tx, before) => articleSnapshot(before),
      remove: (tx) => this.repository.deleteArticle(tx, id),
      action: 'content.article_deleted',
    });
  }

  // ── Community links ─────────────────────────────────────────────────────────────────────────

  communityLinks() {
    return this.settings.get('community_links');
  }

  async saveCommunityLinks(operatorId: string, input: CommunityLinksInput, origin: RequestOrigin): Promise<void> {
    // Languages with neither link set are left out: they read the default language's.
    const links = input.links.filter((entry) => entry.international !== '' || entry.asiaPacific !== '');
    const before = await this.settings.get('community_links');
    await this.db.transaction(async (tx) => {
      await this.settings.set('community_links', { links }, operatorId, tx);
      await recordChange(this.audit, tx, {
        operatorId,
        action: 'content.community_links_updated',
        targetType: 'setting',
        targetId: 'community_links',
        before,
        after: { links },
        origin,
      });
    });
  }

  preview(html: string): { html: string } {
    return { html: sanitizeRichText(html) };
  }
}
