import { createHash } from 'node:crypto';
import {
  documentFileUrl,
  documentPath,
  platformDocumentId,
  type AdminDocument,
  type DocumentItem,
  type DocumentKind,
  type Locale,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { DocumentVersionInfo, DocumentsRepository } from './documents.repository.js';
import { pickTranslation, recordChange } from './localised.js';

/** A PDF by its own first bytes: `%PDF-` and a version (1.x or 2.x), never by a name or a header. */
const PDF_SIGNATURE = /^%PDF-[12]\.\d/;

export interface CheckedPdf {
  content: Buffer;
  sizeBytes: number;
  sha256: string;
}

/** The uploaded bytes, refused unless they are a PDF of at most `maxBytes`. */
export function checkedPdf(contentBase64: string, maxBytes: number): CheckedPdf {
  const content = Buffer.from(contentBase64, 'base64');
  if (content.length > maxBytes) {
    throw AppError.badRequest('document.too_large', { max: `${(maxBytes / (1024 * 1024)).toFixed(1)} MB` });
  }
  if (content.length === 0 || !PDF_SIGNATURE.test(content.subarray(0, 8).toString('latin1'))) {
    throw AppError.badRequest('document.invalid_type');
  }
  return { content, sizeBytes: content.length, sha256: createHash('sha256').update(content).digest('hex') };
}

/**
 * Platform documents (decision 028): the operator uploads PDFs per document and language, each
 * upload a new version; members read the newest published one in their language or the default.
 * Only the platform's own documents are ever opened: a viewer URL that is not one is refused here
 * and nothing is fetched.
 */
export class DocumentsService {
  constructor(
    private readonly db: Db,
    private readonly repository: DocumentsRepository,
    private readonly audit: AuditRepository,
    private readonly settings: SettingsService,
    private readonly files: FileStore,
  ) {}

  private async pick(versions: DocumentVersionInfo[], locale: Locale): Promise<DocumentItem[]> {
    const { defaultLocale } = await this.settings.get('site');
    const kinds = await this.repository.kinds([...new Set(versions.map((version) => version.documentId))]);
    return [...kinds.keys()].flatMap((id) => {
      const version = pickTranslation(
        versions.filter((entry) => entry.documentId === id),
        locale,
        defaultLocale,
      );
      if (!version) return [];
      return [
        {
          id,
          kind: kinds.get(id) as DocumentKind,
          title: version.title,
          locale: version.locale as Locale,
          version: version.version,
          versionId: version.id,
          sizeBytes: version.sizeBytes,
          path: documentPath(id),
          fileUrl: documentFileUrl(version.id),
          publishedAt: version.createdAt.toISOString(),
        },
      ];
    });
  }

  /** Every document the member can read, white paper first. */
  async list(locale: Locale): Promise<DocumentItem[]> {
    const order = ['white_paper', 'terms', 'privacy', 'other'];
    const items = await this.pick(await this.repository.newestPublished(null), locale);
    return items.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.title.localeCompare(b.title));
  }

  /** The document a viewer URL names; anything but a platform document's path is refused, never fetched. */
  async byUrl(locale: Locale, url: string): Promise<DocumentItem> {
    const id = platformDocumentId(url);
    if (!id) throw AppError.badRequest('document.not_platform');
    const [item] = await this.pick(await this.repository.newestPublished([id]), locale);
    if (!item) throw AppError.notFound();
    return item;
  }

  async file(versionId: string) {
    const file = await this.repository.publishedFile(versionId);
    if (!file) throw AppError.notFound();
    return file;
  }

  // ── Console ─────────────────────────────────────────────────────────────────────────────────

  async listForConsole(): Promise<AdminDocument[]> {
    const rows = await this.repository.all();
    const versions = await this.repository.versions(rows.map((row) => row.id));
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind as DocumentKind,
      path: documentPath(row.id),
      versions: versions
        .filter((version) => version.documentId === row.id)
        .map((version) => ({
          id: version.id,
          locale: version.locale as Locale,
          version: version.version,
          title: version.title,
          sizeBytes: version.sizeBytes,
          sha256: version.sha256,
          published: version.published,
          fileUrl: documentFileUrl(version.id),
          createdAt: version.createdAt.toISOString(),
        })),
      createdAt: row.createdAt.toISOString(),
    }));
  }

  async create(operatorId: string, kind: DocumentKind, origin: RequestOrigin): Promise<string> {
    return this.db.transaction(async (tx) => {
      const id = await this.repository.insert(tx, { kind, createdBy: operatorId });
      await recordChange(this.audit, tx, {
        operatorId,
        action: 'content.document_created',
        targetType: 'document',
        targetId: id,
        before: null,
        after: { kind },
        origin,
      });
      return id;
    });
  }

  /** A new version of the document in one language: the PDF checked by its bytes and the size setting. */
  async upload(
    operatorId: string,
    documentId: string,
    input: { locale: Locale; title: string; publish: boolean; contentBase64: string },
    origin: RequestOrigin,
  ): Promise<{ id: string; version: number }> {
    const { maxBytes } = await this.settings.get('documents');
    const pdf = checkedPdf(input.contentBase64, maxBytes);
    // The file first: a row never names bytes the store lacks (an orphan file is harmless).
    await this.files.put(pdf.content);
    return this.db.transaction(async (tx) => {
      // The document's lock orders concurrent uploads, so version numbers never collide.
      if (!(await this.repository.lock(tx, documentId))) throw AppError.notFound();
      const version = await this.repository.nextVersion(tx, documentId, input.locale);
      const id = await this.repository.insertVersion(tx, {
        documentId,
        locale: input.locale,
        version,
        title: input.title,
        published: input.publish,
        sizeBytes: pdf.sizeBytes,
        sha256: pdf.sha256,
        uploadedBy: operatorId,
      });
      await recordChange(this.audit, tx, {
        operatorId,
        action: 'content.document_uploaded',
        targetType: 'document',
        targetId: documentId,
        before: null,
        after: {
          versionId: id,
          locale: input.locale,
          version,
          title: input.title,
          published: input.publish,
          sizeBytes: pdf.sizeBytes,
          sha256: pdf.sha256,
        },
        origin,
      });
      return { id, version };
    });
  }

  async setPublished(operatorId: string, versionId: string, published: boolean, origin: RequestOrigin): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await this.repository.lockVersion(tx, versionId);
      if (!before) throw AppError.notFound();
      await this.repository.setPublished(tx, versionId, published);
      await recordChange(this.audit, tx, {
        operatorId,
        action: published ? 'content.document_published' : 'content.document_withdrawn',
        targetType: 'document_version',
        targetId: versionId,
        before: { published: before.published },
        after: { published },
        origin,
      });
    });
  }

  settingsValue() {
    return this.settings.get('documents');
  }

  async saveSettings(operatorId: string, value: { maxBytes: number }, origin: RequestOrigin): Promise<void> {
    const before = await this.settings.get('documents');
    await this.db.transaction(async (tx) => {
      await this.settings.set('documents', value, operatorId, tx);
      await recordChange(this.audit, tx, {
        operatorId,
        action: 'content.document_settings_updated',
        targetType: 'setting',
        targetId: 'documents',
        before,
        after: value,
        origin,
      });
    });
  }
}
