import { z } from 'zod';
import { APP_VERSION_CODE } from '../constants.js';
import { ValidationReason, requiredText, stringTypeError } from '../validators.js';

/**
 * App releases (issue 16, decision 037): the operator uploads an Android package (a full APK) or a
 * hot bundle (a zip of the member app's web files), makes a release of it with a version code
 * higher than every earlier one, publishes it to a percentage of members and may roll it back.
 * GET /api/common/app_version answers each member the newest release they are staged into.
 */

export const RELEASE_KINDS = ['full', 'hot'] as const;
export type ReleaseKind = (typeof RELEASE_KINDS)[number];

export const RELEASE_STATUSES = ['draft', 'published', 'rolled_back'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

/** The largest package of each kind the server accepts (checked on the received bytes). */
export const RELEASE_PACKAGE_MAX_BYTES: Record<ReleaseKind, number> = {
  full: 150 * 1024 * 1024,
  hot: 30 * 1024 * 1024,
};
/** The request body limit of the upload call: the largest kind's limit. */
export const RELEASE_UPLOAD_BODY_LIMIT_BYTES = RELEASE_PACKAGE_MAX_BYTES.full;

/** The content type each kind is served with (and the file name's ending). */
export const RELEASE_PACKAGE_TYPES: Record<ReleaseKind, { contentType: string; extension: string }> = {
  full: { contentType: 'application/vnd.android.package-archive', extension: 'apk' },
  hot: { contentType: 'application/zip', extension: 'zip' },
};

export const RELEASE_VERSION_NAME_MAX_LENGTH = 32;
export const RELEASE_NOTES_MAX_LENGTH = 2000;

const SHA256_PATTERN = /^[0-9a-f]{64}$/;

/** Where a stored package is served from (same origin; range requests and caching headers). */
export function releasePackagePath(packageId: string): string {
  return `/api/common/app_package/${packageId}`;
}

/**
 * GET /api/common/app_version: the version config (spec §3). Field names are the spec's own
 * because the packaged app's updater reads them; the checksums and sizes are this platform's
 * addition (the app verifies every download against them). Without a release the built-in version
 * (1.0.19 / 10019) is answered with empty package links.
 */
export const appVersionResponse = z.object({
  version: z.string(),
  version_code: z.number().int().nonnegative(),
  hot_version_code: z.number().int().nonnegative(),
  package_url: z.string(),
  hot_package_url: z.string(),
  release_notes: z.string(),
  /** SHA-256 (hex) and size of the full package; '' and 0 without one. */
  package_sha256: z.string(),
  package_size: z.number().int().nonnegative(),
  /** SHA-256 (hex) and size of the hot bundle; '' and 0 without one. */
  hot_package_sha256: z.string(),
  hot_package_size: z.number().int().nonnegative(),
  /**
   * The release key's Ed25519 signature (base64) of `hotBundleSignedMessage` for this bundle
   * (decision 053); '' when the bundle is unsigned. Optional for app builds from before it.
   */
  hot_package_signature: z.string().optional(),
});
export type AppVersion = z.infer<typeof appVersionResponse>;

/**
 * What the release key signs for a hot bundle (decision 053): its version code and SHA-256, so a
 * signature can be replayed neither onto other bytes nor onto another version.
 */
export function hotBundleSignedMessage(versionCode: number, sha256: string): string {
  return `custos-hot-bundle\n${versionCode}\n${sha256.toLowerCase()}`;
}

/** What GET /api/common/app_version answers when no release is published (the built-in version). */
export const BUILT_IN_APP_VERSION_CODE = APP_VERSION_CODE;

export const releasePackageParams = z.object({ id: z.uuid({ error: ValidationReason.invalid }) });
export const releaseIdParams = z.object({ id: z.uuid({ error: ValidationReason.invalid }) });

// ── Console ─────────────────────────────────────────────────────────────────────────────────────

/**
 * POST /api/admin/releases/packages?kind=&sha256=: the package's bytes as the body
 * (application/octet-stream); `sha256` is the checksum the console computed of the file, which the
 * server's own must match.
 */
export const releasePackageUploadQuery = z.object({
  kind: z.enum(RELEASE_KINDS, { error: ValidationReason.invalid }),
  sha256: z.string({ error: stringTypeError }).trim().toLowerCase().regex(SHA256_PATTERN, { error: ValidationReason.invalid }),
});
export type ReleasePackageUploadQuery = z.input<typeof releasePackageUploadQuery>;

export const releasePackageResponse = z.object({
  id: z.string(),
  kind: z.enum(RELEASE_KINDS),
  sizeBytes: z.number().int().positive(),
  sha256: z.string(),
});
export type ReleasePackage = z.infer<typeof releasePackageResponse>;

/** POST /api/admin/releases: a draft release of an uploaded package. */
export const createReleaseRequest = z.object({
  packageId: z.uuid({ error: ValidationReason.invalid }),
  versionCode: z
    .number({ error: ValidationReason.invalid })
    .int({ error: ValidationReason.invalid })
    .min(1, { error: ValidationReason.invalid })
    .max(2_100_000_000, { error: ValidationReason.invalid }),
  versionName: requiredText(RELEASE_VERSION_NAME_MAX_LENGTH).pipe(
    z.string().regex(/^\d+(?:\.\d+){1,3}$/, { error: ValidationReason.invalid }),
  ),
  notes: z
    .string({ error: stringTypeError })
    .trim()
    .max(RELEASE_NOTES_MAX_LENGTH, { error: ValidationReason.tooLong })
    .default(''),
});
export type CreateReleaseRequest = z.input<typeof createReleaseRequest>;

/** POST /api/admin/releases/:id/publish: publish a draft, or change a published release's share. */
export const publishReleaseRequest = z.object({
  rolloutPercent: z
    .number({ error: ValidationReason.invalid })
    .int({ error: ValidationReason.invalid })
    .min(1, { error: ValidationReason.invalid })
    .max(100, { error: ValidationReason.invalid }),
});
export type PublishReleaseRequest = z.input<typeof publishReleaseRequest>;

export const adminRelease = z.object({
  id: z.string(),
  kind: z.enum(RELEASE_KINDS),
  versionCode: z.number().int(),
  versionName: z.string(),
  notes: z.string(),
  status: z.enum(RELEASE_STATUSES),
  rolloutPercent: z.number().int(),
  packageId: z.string(),
  packageUrl: z.string(),
  sizeBytes: z.number().int(),
  sha256: z.string(),
  createdAt: z.iso.datetime(),
  publishedAt: z.iso.datetime().nullable(),
  rolledBackAt: z.iso.datetime().nullable(),
  /** Whether the release step signed it with the release key (hot bundles; decision 053). */
  signed: z.boolean().optional(),
});
export type AdminRelease = z.infer<typeof adminRelease>;

export const adminReleasesResponse = z.object({
  items: z.array(adminRelease),
  /** The version code a new release must exceed (the highest so far, or the built-in one). */
  highestVersionCode: z.number().int(),
});
export type AdminReleases = z.infer<typeof adminReleasesResponse>;
