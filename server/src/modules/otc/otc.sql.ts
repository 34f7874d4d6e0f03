import { sql, type SQL } from 'drizzle-orm';

/** A bound parameter of ids as a uuid[] (one parameter however many ids). */
export function uuidArray(ids: readonly string[]): SQL {
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

/** A bound parameter of texts as a text[]. */
export function textArray(values: readonly string[]): SQL {
  return sql`${`{${values.join(',')}}`}::text[]`;
}
