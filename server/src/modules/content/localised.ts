import type { Locale } from '@custos/contract';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';

/*
 * What every piece of operator content shares (decisions 026, 028): banners, notices, news, help
 * categories and help articles are a row with one version per language, read in the member's
 * language or the platform default's, and written by operators in an audited transaction.
 */

/** The version in the member's language, else the platform default's, else none (the piece is not shown). */
export function pickTranslation<T extends { locale: string }>(
  translations: T[],
  locale: Locale,
  defaultLocale: Locale,
): T | null {
  return (
    translations.find((translation) => translation.locale === locale) ??
    translations.find((translation) => translation.locale === defaultLocale) ??
    null
  );
}

/** Each row with the version the member reads; rows with neither language are left out. */
export function localise<R extends { id: string }, T extends { locale: string }>(
  rows: R[],
  translations: T[],
  parentOf: (translation: T) => string,
  locale: Locale,
  defaultLocale: Locale,
): { row: R; translation: T; locale: Locale }[] {
  return rows.flatMap((row) => {
    const translation = pickTranslation(
      translations.filter((entry) => parentOf(entry) === row.id),
      locale,
      defaultLocale,
    );
    return translation ? [{ row, translation, locale: translation.locale as Locale }] : [];
  });
}

export function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}
export function dateOf(value: string | null): Date | null {
  return value ? new Date(value) : null;
}

/** An operator's change as the audit log keeps it, written in the change's own transaction. */
export function recordChange(
  audit: AuditRepository,
  tx: Tx,
  change: {
    operatorId: string;
    origin: RequestOrigin;
    action: string;
    targetType: string;
    targetId: string;
    before: unknown;
    after: unknown;
  },
): Promise<void> {
  const { origin, ...entry } = change;
  return audit.record({ ...entry, ip: origin.ip, requestId: origin.requestId }, tx);
}

interface AuditedWrite<Before> {
  operatorId: string;
  origin: RequestOrigin;
  targetType: string;
  /** The row as it was, locked for the change (null: it does not exist). */
  lock: (tx: Tx) => Promise<Before | null>;
  /** What the audit record keeps of the row as it was. */
  snapshot: (tx: Tx, before: Before) => Promise<unknown>;
}

/**
 * Creates (id null) or changes a piece and writes its audit record in the same transaction: a
 * change to a piece that does not exist is "not found" and writes nothing.
 */
export async function auditedSave<Before>(
  db: Db,
  audit: AuditRepository,
  id: string | null,
  write: AuditedWrite<Before> & {
    save: (tx: Tx, before: Before | null) => Promise<string>;
    action: (before: Before | null) => string;
    after: unknown;
  },
): Promise<string> {
  return db.transaction(async (tx) => {
    const before = id ? await write.lock(tx) : null;
    if (id && !before) throw AppError.notFound();
    const snapshot = before ? await write.snapshot(tx, before) : null;
    const saved = await write.save(tx, before);
    await recordChange(audit, tx, {
      operatorId: write.operatorId,
      origin: write.origin,
      action: write.action(before),
      targetType: write.targetType,
      targetId: saved,
      before: snapshot,
      after: write.after,
    });
    return saved;
  });
}

/** Deletes a piece and writes its audit record (with what it was) in the same transaction. */
export async function auditedDelete<Before>(
  db: Db,
  audit: AuditRepository,
  id: string,
  write: AuditedWrite<Before> & { remove: (tx: Tx) => Promise<void>; action: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await write.lock(tx);
    if (!before) throw AppError.notFound();
    const snapshot = await write.snapshot(tx, before);
    await write.remove(tx);
    await recordChange(audit, tx, {
      operatorId: write.operatorId,
      origin: write.origin,
      action: write.action,
      targetType: write.targetType,
      targetId: id,
      before: snapshot,
      after: null,
    });
  });
}
