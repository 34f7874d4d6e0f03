/** A decimal string with its whole part grouped by thousands; no float ever touches the price. */
export function groupDigits(value: string): string {
  const [whole = '0', fraction] = value.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

export type ChangeDirection = 'up' | 'down' | 'flat';

/** Which way a 24 h change ("-1.25", "0.00", "2.50") points. */
export function changeDirection(change: string): ChangeDirection {
  if (change.startsWith('-')) return 'down';
  return /[1-9]/.test(change) ? 'up' : 'flat';
}

/** The change as shown: a sign on rises, the server's two places, a percent sign. */
export function changeText(change: string): string {
  return `${changeDirection(change) === 'up' ? '+' : ''}${change}%`;
}
