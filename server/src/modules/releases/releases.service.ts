import { createHash, sign, type KeyObject } from 'node:crypto';
import {
  APP_VERSION,
  APP_VERSION_CODE,
  RELEASE_PACKAGE_MAX_BYTES,
  hotBundleSignedMessage,
  RELEASE_PACKAGE_TYPES,
  releasePackagePath,
  type AdminRelease,
  type AdminReleases,
  type AppVersion,
  type ReleaseKind,
  type ReleasePackage,
  type ReleaseStatus,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStore } from '../../lib/storage/file-store.js';
import type { ReleaseWithPackage, ReleasesRepository } from './releases.repository.js';

/** A zip file's local-file-header signature: every APK and every hot bundle starts with it. */
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** The central directory's entry names that make a zip an APK, or a hot bundle of the member app. */
const REQUIRED_ENTRIES: Record<ReleaseKind, string[]> = {
  full: ['AndroidManifest.xml', 'classes.dex'],
  hot: ['index.html'],
};

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(0)} MB`;
}

/**
 * The package's bytes, refused unless they are of the kind (a zip by its first bytes, with the
 * entries an APK or a hot bundle has), within the kind's size and of the SHA-256 the operator gave.
 */
export function checkedPackage(kind: ReleaseKind, content: Buffer, expectedSha256: string) {
  const maxBytes = RELEASE_PACKAGE_MAX_BYTES[kind];
  if (content.length > maxBytes) throw AppError.badRequest('release.too_large', { max: megabytes(maxBytes) });
  const typeError = kind === 'full' ? 'release.invalid_type_full' : 'release.invalid_type_hot';
  if (content.length < ZIP_SIGNATURE.length || !content.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)) {
    throw AppError.badRequest(typeError);
  }
  if (!REQUIRED_ENTRIES[kind].every((name) => content.includes(name, 0, 'latin1'))) throw AppError.badRequest(typeError);
  const sha256 = createHash('sha256').update(content).digest('hex');
  if (sha256 !== expectedSha256) throw AppError.badRequest('release.checksum_mismatch');
  return { sizeBytes: content.length, sha256 };
}

/**
 * A member's place (0–99) in a release's rollout: from the member id and the release id, so the
 * same member stays in as the share grows and different releases reach different members first.
 */
export function rolloutBucket(releaseId: string, memberId: string): number {
  return createHash('sha256').update(`${releaseId}:${memberId}`).digest().readUInt32BE(0) % 100;
}

function packageFileName(packageId: string, kind: ReleaseKind): string {
  return `${packageId}.${RELEASE_PACKAGE_TYPES[kind].extension}`;
}

/** The path a package is served from: its id and the kind's ending (the app tells .apk from .zip by it). */
export function packageUrl(packageId: string, kind: ReleaseKind): string {
  return releasePackagePath(packageFileName(packageId, kind));
}

/**
 * App releases (decision 037): packages uploaded by operators, releases with ever-rising version
 * codes, staged rollout and rollback, all audited; and the version config each caller is answered.
 */
export class ReleasesService {
  constructor(
    private readonly db: Db,
    private readonly repository: ReleasesRepository,
    private readonly audit: AuditRepository,
    private readonly clock: Clock,
    private readonly files: FileStore,
    /** The release key (config RELEASE_SIGNING_KEY): given to the release step, never stored. */
    private readonly signingKey: KeyObject | undefined = undefined,
  ) {}

  /** The version config (spec §3) for a member (staged releases by their bucket) or a visitor (full rollouts only). */
  async appVersion(memberId: string | null): Promise<AppVersion> {
    const eligible = (await this.repository.published()).filter(
      (release) =>
        release.rolloutPercent >= 100 || (memberId !== null && rolloutBucket(release.id, memberId) < release.rolloutPercent),
    );
    const full = eligible.find((release) => release.kind === 'full');
    const versionCode = full?.versionCode ?? APP_VERSION_CODE;
    // A hot bundle older than the newest full package was built for an older shell: never offered;
    // nor one without a signature (published before decision 057), which every app refuses.
    const hot = eligible.find((release) => release.kind === 'hot' && release.signature && release.versionCode > versionCode);
    return {
      version: hot?.versionName ?? full?.versionName ?? APP_VERSION,
      version_code: versionCode,
      hot_version_code: hot?.versionCode ?? versionCode,
      package_url: full ? packageUrl(full.packageId, 'full') : '',
      hot_package_url: hot ? packageUrl(hot.packageId, 'hot') : '',
      release_notes: (hot ?? full)?.notes ?? '',
      package_sha256: full?.sha256 ?? '',
      package_size: full?.sizeBytes ?? 0,
      hot_package_sha256: hot?.sha256 ?? '',
      hot_package_size: hot?.sizeBytes ?? 0,
      hot_package_signature: hot?.signature ?? '',
    };
  }

  /** A package a published release serves (by its file name: id and kind's ending), else not found. */
  async servedPackage(fileName: string) {
    const match = /^([0-9a-f-]{36})\.(apk|zip)$/.exec(fileName);
    if (!match) throw AppError.notFound();
    const found = await this.repository.servedPackage(match[1]!);
    if (!found || RELEASE_PACKAGE_TYPES[found.kind as ReleaseKind].extension !== match[2]) throw AppError.notFound();
    return { ...found, kind: found.kind as ReleaseKind };
  }

  // ── Console ─────────────────────────────────────────────────────────────────────────────────

  async list(): Promise<AdminReleases> {
    const rows = await this.repository.all();
    return {
      items: rows.map((row) => this.adminView(row)),
      highestVersionCode: Math.max(APP_VERSION_CODE, rows[0]?.versionCode ?? 0),
    };
  }

  private adminView(row: ReleaseWithPackage): AdminRelease {
    return {
      id: row.id,
      kind: row.kind as ReleaseKind,
      versionCode: row.versionCode,
      versionName: row.versionName,
      notes: row.notes,
      status: row.status as ReleaseStatus,
      rolloutPercent: row.rolloutPercent,
      packageId: row.packageId,
      packageUrl: packageUrl(row.packageId, row.kind as ReleaseKind),
      sizeBytes: row.sizeBytes,
      sha256: row.sha256,
      createdAt: row.createdAt.toISOString(),
      publishedAt: row.publishedAt?.toISOString() ?? null,
      rolledBackAt: row.rolledBackAt?.toISOString() ?? null,
      signed: row.signature !== null,
    };
  }

  /** Stores an uploaded package after checking its kind, size and checksum (audited). */
  async upload(
    operatorId: string,
    input: { kind: ReleaseKind; sha256: string; content: Buffer },
    origin: RequestOrigin,
  ): Promise<ReleasePackage> {
    const checked = checkedPackage(input.kind, input.content, input.sha256);
    // The file first: a row never names bytes the store lacks (an orphan file is harmless).
    await this.files.put(input.content);
    return this.db.transaction(async (tx) => {
      const id = await this.repository.insertPackage(
        { kind: input.kind, sizeBytes: checked.sizeBytes, sha256: checked.sha256, uploadedBy: operatorId },
        tx,
      );
      await this.audit.record(
        {
          operatorId,
          action: 'releases.package_uploaded',
          targetType: 'app_release_package',
          targetId: id,
          before: null,
          after: { kind: input.kind, ...checked },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return { id, kind: input.kind, ...checked };
    });
  }

  /** Whether hot releases can be made here: only with the release key (decision 057). */
  get signsHotBundles(): boolean {
    return this.signingKey !== undefined;
  }

  /** A draft release of an uploaded package; its version code must exceed every earlier release's (audited). */
  async create(
    operatorId: string,
    input: { packageId: string; versionCode: number; versionName: string; notes: string },
    origin: RequestOrigin,
  ): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await this.repository.lockReleases(tx);
      const pkg = await this.repository.packageInfo(input.packageId, tx);
      if (!pkg) throw AppError.notFound();
      if (await this.repository.packageUsed(tx, pkg.id)) throw AppError.conflict('release.package_used');
      const current = Math.max(APP_VERSION_CODE, (await this.repository.highestVersionCode(tx)) ?? 0);
      if (input.versionCode <= current) throw AppError.badRequest('release.version_not_higher', { current: String(current) });
      // The release step signs a hot bundle's SHA-256 and version with the release key (decision 053);
      // without a key there is no hot release at all, as no app applies an unsigned bundle (decision 057).
      if (pkg.kind === 'hot' && !this.signingKey) throw AppError.conflict('release.signing_key_missing');
      const signature =
        pkg.kind === 'hot'
          ? sign(null, Buffer.from(hotBundleSignedMessage(input.versionCode, pkg.sha256)), this.signingKey!).toString('base64')
          : null;
      const id = await this.repository.insertRelease(tx, { ...input, kind: pkg.kind, createdBy: operatorId, signature });
      await this.audit.record(
        {
          operatorId,
          action: 'releases.created',
          targetType: 'app_release',
          targetId: id,
          before: null,
          after: { ...input, kind: pkg.kind, sha256: pkg.sha256, sizeBytes: pkg.sizeBytes, signed: signature !== null },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return { id };
    });
  }

  /** Publishes a draft to a share of members, or changes a published release's share (audited). */
  async publish(operatorId: string, id: string, rolloutPercent: number, origin: RequestOrigin): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await this.repository.lockRelease(tx, id);
      if (!before) throw AppError.notFound();
      if (before.status === 'rolled_back') throw AppError.conflict('release.rolled_back');
      // A draft made unsigned before decision 057 would be offered to apps that all refuse it.
      if (before.kind === 'hot' && !before.signature) throw AppError.conflict('release.unsigned');
      const publishedAt = before.publishedAt ?? this.clock.now();
      await this.repository.update(tx, id, { status: 'published', rolloutPercent, publishedAt });
      await this.audit.record(
        {
          operatorId,
          action: before.status === 'draft' ? 'releases.published' : 'releases.rollout_changed',
          targetType: 'app_release',
          targetId: id,
          before: { status: before.status, rolloutPercent: before.rolloutPercent },
          after: { status: 'published', rolloutPercent },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
  }

  /**
   * Rolls a published release back: no member is offered it again, and the previous published
   * release of the kind (if any) is what app_version answers (audited).
   */
  async rollback(operatorId: string, id: string, origin: RequestOrigin): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await this.repository.lockRelease(tx, id);
      if (!before) throw AppError.notFound();
      if (before.status !== 'published') throw AppError.conflict('release.not_published');
      await this.repository.update(tx, id, { status: 'rolled_back', rolledBackAt: this.clock.now() });
      await this.audit.record(
        {
          operatorId,
          action: 'releases.rolled_back',
          targetType: 'app_release',
          targetId: id,
          before: { status: before.status, rolloutPercent: before.rolloutPercent },
          after: { status: 'rolled_back' },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
  }
}
