import { z } from 'zod';
import { LOCALES } from '../locales.js';
import { ValidationReason, requiredText, stringTypeError } from '../validators.js';
import { CONTENT_TITLE_MAX_LENGTH, localeSchema } from './content.js';

/**
 * Platform documents (issue 13, decision 028): PDFs the operator uploads — the white paper, terms,
 * privacy policy and others — one version per upload and language; members read the newest
 * published version in their language, or the platform default's, in the app's own viewer.
 */

export const DOCUMENT_KINDS = ['white_paper', 'terms', 'privacy', 'other'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The most the operator's "largest PDF" setting may be; the setting starts at DOCUMENT_DEFAULT_MAX_BYTES. */
export const DOCUMENT_MAX_BYTES_CAP = 20 * 1024 * 1024;
export const DOCUMENT_DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** A platform document's own path: the only thing the viewer (`/pages/pdf/pdf?url=`) opens. */
export function documentPath(id: string): string {
  return `/api/content/document/${id}`;
}
export const DOCUMENT_PATH = new RegExp(`^/api/content/document/(${UUID})$`);

/** The document id a viewer `url` names, or null when it is not a platform document (then nothing is fetched). */
export function platformDocumentId(url: string): string | null {
  return DOCUMENT_PATH.exec(url)?.[1] ?? null;
}

/** Where one version's bytes are served (immutable under its id). */
export function documentFileUrl(versionId: string): string {
  return `/api/content/document_file/${versionId}`;
}

/** The app route that shows a document. */
export function documentViewerRoute(id: string): string {
  return `/pages/pdf/pdf?url=${encodeURIComponent(documentPath(id))}`;
}

// ── Member calls (public: terms and privacy are read before signing up) ──────────────────────────

export const documentItem = z.object({
  id: z.string(),
  kind: z.enum(DOCUMENT_KINDS),
  title: z.string(),
  locale: z.enum(LOCALES),
  version: z.number().int().positive(),
  versionId: z.string(),
  sizeBytes: z.number().int().positive(),
  path: z.string(),
  fileUrl: z.string(),
  publishedAt: z.iso.datetime(),
});
export type DocumentItem = z.infer<typeof documentItem>;

/** GET /api/common/documents: every document with a published version the member can read. */
export const documentsResponse = z.array(documentItem);

/** GET /api/common/document?url=: the viewer's url, refused unless it is a platform document's path. */
export const documentQuery = z.object({
  url: z
    .string({ error: stringTypeError })
    .max(200, { error: ValidationReason.tooLong })
    .refine((value) => platformDocumentId(value) !== null, { error: 'platform_document' }),
});

// ── Console ─────────────────────────────────────────────────────────────────────────────────────

export const documentRequest = z.object({ kind: z.enum(DOCUMENT_KINDS, { error: ValidationReason.invalid }) });

/** POST /api/admin/content/documents/:id/versions: a PDF (by its bytes) in one language; a new version. */
export const documentVersionRequest = z.object({
  locale: localeSchema,
  title: requiredText(CONTENT_TITLE_MAX_LENGTH),
  publish: z.boolean({ error: ValidationReason.invalid }).default(true),
  contentBase64: z
    .string({ error: stringTypeError })
    .min(1, { error: ValidationReason.required })
    .max(Math.ceil(DOCUMENT_MAX_BYTES_CAP / 3) * 4, { error: ValidationReason.tooLong }),
});
export type DocumentVersionRequest = z.input<typeof documentVersionRequest>;

export const documentVersionPublishRequest = z.object({ published: z.boolean({ error: ValidationReason.invalid }) });

export const adminDocumentVersion = z.object({
  id: z.string(),
  locale: z.enum(LOCALES),
  version: z.number().int().positive(),
  title: z.string(),
  sizeBytes: z.number().int().positive(),
  sha256: z.string(),
  published: z.boolean(),
  fileUrl: z.string(),
  createdAt: z.iso.datetime(),
});
export const adminDocument = z.object({
  id: z.string(),
  kind: z.enum(DOCUMENT_KINDS),
  path: z.string(),
  versions: z.array(adminDocumentVersion),
  createdAt: z.iso.datetime(),
});
export type AdminDocument = z.infer<typeof adminDocument>;
export const adminDocumentsResponse = z.array(adminDocument);

export const documentSettingsSchema = z.object({
  maxBytes: z
    .number({ error: ValidationReason.invalid })
    .int({ error: ValidationReason.invalid })
    .min(1024, { error: ValidationReason.invalid })
    .max(DOCUMENT_MAX_BYTES_CAP, { error: ValidationReason.invalid }),
});
export type DocumentSettings = z.infer<typeof documentSettingsSchema>;
