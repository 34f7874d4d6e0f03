/** A calendar date as the server takes it ('2026-11-21'): a real day of a real month. */
export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** An instant from the server in the operator's own time zone. */
export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString();
}
