import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { appReleasePackages, appReleases } from '../../db/schema.js';

export type ReleaseRow = typeof appReleases.$inferSelect;

/** A release with its package's size and checksum (never its bytes). */
export type ReleaseWithPackage = ReleaseRow & { sizeBytes: number; sha256: string };

export interface PackageInfo {
  id: string;
  kind: string;
  sizeBytes: number;
  sha256: string;
}

const releaseWithPackageColumns = {
  id: appReleases.id,
  packageId: appReleases.packageId,
  kind: appReleases.kind,
  versionCode: appReleases.versionCode,
  versionName: appReleases.versionName,
  notes: appReleases.notes,
  status: appReleases.status,
  rolloutPercent: appReleases.rolloutPercent,
  createdBy: appReleases.createdBy,
  createdAt: appReleases.createdAt,
  publishedAt: appReleases.publishedAt,
  rolledBackAt: appReleases.rolledBackAt,
  signature: appReleases.signature,
  sizeBytes: appReleasePackages.sizeBytes,
  sha256: appReleasePackages.sha256,
};

/** App releases and their packages (decision 037); only this file writes their SQL. */
export class ReleasesRepository {
  constructor(private readonly db: Db) {}

  async insertPackage(row: { kind: string; sizeBytes: number; sha256: string; uploadedBy: string }, tx: Db | Tx = this.db) {
    const [inserted] = await tx.insert(appReleasePackages).values(row).returning({ id: appReleasePackages.id });
    return inserted!.id;
  }

  async packageInfo(id: string, tx: Db | Tx = this.db): Promise<PackageInfo | null> {
    const rows = await tx
      .select({
        id: appReleasePackages.id,
        kind: appReleasePackages.kind,
        sizeBytes: appReleasePackages.sizeBytes,
        sha256: appReleasePackages.sha256,
      })
      .from(appReleasePackages)
      .where(eq(appReleasePackages.id, id));
    return rows[0] ?? null;
  }

  /** A package that a published release serves, with its release's name (for the file name). */
  async servedPackage(id: string): Promise<(PackageInfo & { versionName: string }) | null> {
    const rows = await this.db
      .select({
        id: appReleasePackages.id,
        kind: appReleasePackages.kind,
        sizeBytes: appReleasePackages.sizeBytes,
        sha256: appReleasePackages.sha256,
        versionName: appReleases.versionName,
      })
      .from(appReleasePackages)
      .innerJoin(appReleases, eq(appReleases.packageId, appReleasePackages.id))
      .where(and(eq(appReleasePackages.id, id), eq(appReleases.status, 'published')));
    return rows[0] ?? null;
  }

  /** Serialises release writes (version codes must rise; one transaction decides at a time). */
  async lockReleases(tx: Tx): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('app_releases'))`);
  }

  async highestVersionCode(tx: Db | Tx = this.db): Promise<number | null> {
    const [row] = await tx.select({ value: sql<number | null>`max(${appReleases.versionCode})` }).from(appReleases);
    return row?.value === null || row?.value === undefined ? null : Number(row.value);
  }

  async packageUsed(tx: Tx, packageId: string): Promise<boolean> {
    const rows = await tx.select({ id: appReleases.id }).from(appReleases).where(eq(appReleases.packageId, packageId));
    return rows.length > 0;
  }

  async insertRelease(
    tx: Tx,
    row: {
      packageId: string;
      kind: string;
      versionCode: number;
      versionName: string;
      notes: string;
      createdBy: string;
      signature: string | null;
    },
  ): Promise<string> {
    const [inserted] = await tx.insert(appReleases).values(row).returning({ id: appReleases.id });
    return inserted!.id;
  }

  async lockRelease(tx: Tx, id: string): Promise<ReleaseRow | null> {
    const rows = await tx.select().from(appReleases).where(eq(appReleases.id, id)).for('update');
    return rows[0] ?? null;
  }

  async update(
    tx: Tx,
    id: string,
    changes: Partial<Pick<ReleaseRow, 'status' | 'rolloutPercent' | 'publishedAt' | 'rolledBackAt'>>,
  ): Promise<void> {
    await tx.update(appReleases).set(changes).where(eq(appReleases.id, id));
  }

  async all(): Promise<ReleaseWithPackage[]> {
    return this.db
      .select(releaseWithPackageColumns)
      .from(appReleases)
      .innerJoin(appReleasePackages, eq(appReleasePackages.id, appReleases.packageId))
      .orderBy(desc(appReleases.versionCode));
  }

  /** Published releases, newest version first (few: the staging choice is made in the service). */
  async published(kinds: string[] = ['full', 'hot']): Promise<ReleaseWithPackage[]> {
    return this.db
      .select(releaseWithPackageColumns)
      .from(appReleases)
      .innerJoin(appReleasePackages, eq(appReleasePackages.id, appReleases.packageId))
      .where(and(eq(appReleases.status, 'published'), inArray(appReleases.kind, kinds)))
      .orderBy(desc(appReleases.versionCode));
  }
}
