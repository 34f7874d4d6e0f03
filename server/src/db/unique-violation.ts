/** PostgreSQL's "unique_violation": an insert lost a race for a unique index. */
const UNIQUE_VIOLATION = '23505';

/** Whether an error (or what caused it: drizzle wraps the driver's) is a unique violation. */
export function isUniqueViolation(error: unknown): boolean {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: unknown };
  return code === UNIQUE_VIOLATION || (cause !== undefined && isUniqueViolation(cause));
}
