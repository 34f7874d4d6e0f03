import { z } from 'zod';
import { BADGE_MAX, UPLOAD_BASE64_MAX_LENGTH } from '../constants.js';
import { LOCALES } from '../locales.js';
import { ValidationReason, requiredText, stringTypeError } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';

/**
 * Operator content (issue 13, decision 026): banners, the notice marquee and news articles, each
 * with a version per language; members read them in their language, or the platform default.
 */

export const ARTICLE_TYPES = ['announcement', 'market', 'financial'] as const;
export type ArticleType = (typeof ARTICLE_TYPES)[number];
export const ARTICLE_STATUSES = ['draft', 'published'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** A badge shows at most BADGE_MAX (spec §9); more reads as "999+". */
export function badgeText(count: number): string {
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
}

export const CONTENT_TITLE_MAX_LENGTH = 120;
export const CONTENT_SUMMARY_MAX_LENGTH = 300;
export const NOTICE_TEXT_MAX_LENGTH = 300;
/** The article body as the editor sends it, before sanitising. */
export const ARTICLE_BODY_MAX_LENGTH = 100_000;

/** Where an uploaded content image is served (same origin, so the CSP's `img-src 'self'` allows it). */
export function contentImageUrl(id: string): string {
  return `/api/content/image/${id}`;
}
export const CONTENT_IMAGE_PATH = /^\/api\/content\/image\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A member app route (`/pages/…`, optional query) or an https URL. */
const APP_ROUTE_LINK = /^\/pages\/[a-z0-9_]+(?:\/[a-z0-9_]+)*(?:\?[A-Za-z0-9_.~%=&-]*)?$/;
export function isContentLink(value: string): boolean {
  if (APP_ROUTE_LINK.test(value)) return true;
  if (!/^https:\/\/[^\s]+$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export const optionalInstant = z.iso.datetime({ offset: true, error: ValidationReason.invalid }).nullable().default(null);

const contentLink = z
  .string({ error: stringTypeError })
  .trim()
  .max(500, { error: ValidationReason.tooLong })
  .refine((value) => value === '' || isContentLink(value), { error: 'link' })
  .nullable()
  .default(null)
  .transform((value) => (value ? value : null));

/** Each locale at most once, at least one version. */
export function translationsOf<T extends z.ZodObject>(item: T) {
  return z
    .array(item, { error: ValidationReason.invalid })
    .min(1, { error: ValidationReason.required })
    .max(LOCALES.length, { error: ValidationReason.invalid })
    .refine((items) => new Set(items.map((entry) => (entry as { locale: string }).locale)).size === items.length, {
      error: ValidationReason.invalid,
    });
}

function scheduled<T extends z.ZodObject>(schema: T) {
  return schema.refine(
    (value) => {
      const { startsAt, endsAt } = value as { startsAt: string | null; endsAt: string | null };
      return !startsAt || !endsAt || new Date(endsAt).getTime() > new Date(startsAt).getTime();
    },
    { error: 'schedule_order', path: ['endsAt'] },
  );
}

export const localeSchema = z.enum(LOCALES, { error: ValidationReason.invalid });

// ── Member calls ────────────────────────────────────────────────────────────────────────────────

/** GET /api/common/banner: the banners showing now, in order, each in the member's language or the default. */
export const bannerItem = z.object({
  id: z.string(),
  title: z.string(),
  imageUrl: z.string(),
  link: z.string().nullable(),
  locale: z.enum(LOCALES),
});
export type BannerItem = z.infer<typeof bannerItem>;
export const bannerResponse = z.array(bannerItem);

/** GET /api/common/notice_marquee: the notices showing now. */
export const noticeItem = z.object({ id: z.string(), text: z.string(), locale: z.enum(LOCALES) });
export type NoticeItem = z.infer<typeof noticeItem>;
export const noticeMarqueeResponse = z.array(noticeItem);

/** GET /api/common/news_list: published articles of one type, newest first. */
export const newsListQuery = pageQuery.extend({ type: z.enum(ARTICLE_TYPES, { error: ValidationReason.invalid }) });
export const newsSummary = z.object({
  id: z.string(),
  type: z.enum(ARTICLE_TYPES),
  title: z.string(),
  summary: z.string(),
  coverUrl: z.string().nullable(),
  publishedAt: z.iso.datetime(),
  locale: z.enum(LOCALES),
  /** Announcements only: the member has not opened it yet. */
  unread: z.boolean(),
});
export type NewsSummary = z.infer<typeof newsSummary>;
export const newsListResponse = pageOf(newsSummary);

/** GET /api/common/news_detail?id=: one article; opening an announcement marks it read. */
export const newsDetailQuery = z.object({ id: z.uuid({ error: ValidationReason.invalid }) });
export const newsDetail = newsSummary.extend({ bodyHtml: z.string() });
export type NewsDetail = z.infer<typeof newsDetail>;

/** GET /api/common/news_unread: announcements the member has not opened (the badge). */
export const newsUnreadResponse = z.object({ announcements: z.number().int().nonnegative() });

// ── Console ─────────────────────────────────────────────────────────────────────────────────────

/** POST /api/admin/content/images: an image for banners, covers and article bodies. */
export const contentImageRequest = z.object({
  contentBase64: z
    .string({ error: stringTypeError })
    .min(1, { error: ValidationReason.required })
    .max(UPLOAD_BASE64_MAX_LENGTH, { error: ValidationReason.tooLong }),
});
export const contentImageResponse = z.object({ id: z.string(), url: z.string() });

export const contentIdParams = z.object({ id: z.uuid() });
export const contentImageParams = z.object({ id: z.uuid() });

export const bannerRequest = scheduled(
  z.object({
    link: contentLink,
    sortOrder: z.number({ error: ValidationReason.invalid }).int({ error: ValidationReason.invalid }).min(0).max(9999).default(0),
    startsAt: optionalInstant,
    endsAt: optionalInstant,
    translations: translationsOf(
      z.object({
        locale: localeSchema,
        title: requiredText(CONTENT_TITLE_MAX_LENGTH),
        imageId: z.uuid({ error: ValidationReason.invalid }),
      }),
    ),
  }),
);
export type BannerRequest = z.input<typeof bannerRequest>;

export const adminBanner = z.object({
  id: z.string(),
  link: z.string().nullable(),
  sortOrder: z.number().int(),
  startsAt: z.iso.datetime().nullable(),
  endsAt: z.iso.datetime().nullable(),
  translations: z.array(z.object({ locale: z.enum(LOCALES), title: z.string(), imageId: z.string() })),
  updatedAt: z.iso.datetime(),
});
export type AdminBanner = z.infer<typeof adminBanner>;
export const adminBannersResponse = z.array(adminBanner);

export const noticeRequest = scheduled(
  z.object({
    sortOrder: z.number({ error: ValidationReason.invalid }).int({ error: ValidationReason.invalid }).min(0).max(9999).default(0),
    startsAt: optionalInstant,
    endsAt: optionalInstant,
    translations: translationsOf(z.object({ locale: localeSchema, text: requiredText(NOTICE_TEXT_MAX_LENGTH) })),
  }),
);
export type NoticeRequest = z.input<typeof noticeRequest>;

export const adminNotice = z.object({
  id: z.string(),
  sortOrder: z.number().int(),
  startsAt: z.iso.datetime().nullable(),
  endsAt: z.iso.datetime().nullable(),
  translations: z.array(z.object({ locale: z.enum(LOCALES), text: z.string() })),
  updatedAt: z.iso.datetime(),
});
export type AdminNotice = z.infer<typeof adminNotice>;
export const adminNoticesResponse = z.array(adminNotice);

export const articleRequest = z.object({
  type: z.enum(ARTICLE_TYPES, { error: ValidationReason.invalid }),
  status: z.enum(ARTICLE_STATUSES, { error: ValidationReason.invalid }),
  /** Published articles show from this instant (null: from publishing). */
  publishAt: optionalInstant,
  coverImageId: z.uuid({ error: ValidationReason.invalid }).nullable().default(null),
  translations: translationsOf(
    z.object({
      locale: localeSchema,
      title: requiredText(CONTENT_TITLE_MAX_LENGTH),
      summary: z
        .string({ error: stringTypeError })
        .trim()
        .max(CONTENT_SUMMARY_MAX_LENGTH, { error: ValidationReason.tooLong })
        .default(''),
      bodyHtml: z
        .string({ error: stringTypeError })
        .max(ARTICLE_BODY_MAX_LENGTH, { error: ValidationReason.tooLong })
        .refine((value) => value.trim() !== '', { error: ValidationReason.required }),
    }),
  ),
});
export type ArticleRequest = z.input<typeof articleRequest>;

export const adminArticle = z.object({
  id: z.string(),
  type: z.enum(ARTICLE_TYPES),
  status: z.enum(ARTICLE_STATUSES),
  publishAt: z.iso.datetime().nullable(),
  publishedAt: z.iso.datetime().nullable(),
  coverImageId: z.string().nullable(),
  translations: z.array(z.object({ locale: z.enum(LOCALES), title: z.string(), summary: z.string(), bodyHtml: z.string() })),
  updatedAt: z.iso.datetime(),
});
export type AdminArticle = z.infer<typeof adminArticle>;
export const adminArticlesQuery = pageQuery.extend({ type: z.enum(ARTICLE_TYPES).optional() });
export const adminArticlesResponse = pageOf(adminArticle);

/** POST /api/admin/content/preview: what the server would store of this HTML. */
export const contentPreviewRequest = z.object({
  html: z.string({ error: stringTypeError }).max(ARTICLE_BODY_MAX_LENGTH, { error: ValidationReason.tooLong }),
});
export const contentPreviewResponse = z.object({ html: z.string() });

// ── Community links (setting5) ──────────────────────────────────────────────────────────────────

/** An https address, or empty for "none in this language". */
const communityUrl = z
  .string({ error: stringTypeError })
  .trim()
  .max(500, { error: ValidationReason.tooLong })
  .refine((value) => value === '' || (value.startsWith('https://') && isContentLink(value)), { error: 'https_url' });

/** GET/PUT /api/admin/content/community_links: the international and Asia-Pacific groups per language. */
export const communityLinksRequest = z.object({
  links: z
    .array(z.object({ locale: localeSchema, international: communityUrl, asiaPacific: communityUrl }), {
      error: ValidationReason.invalid,
    })
    .max(LOCALES.length, { error: ValidationReason.invalid })
    .refine((items) => new Set(items.map((entry) => entry.locale)).size === items.length, { error: ValidationReason.invalid }),
});
export type CommunityLinksRequest = z.input<typeof communityLinksRequest>;
export const communityLinksResponse = z.object({
  links: z.array(z.object({ locale: z.enum(LOCALES), international: z.string(), asiaPacific: z.string() })),
});
