/** Where one of my messages stands: stored, fetched by the other side's app, or seen by the other side. */
export type Tick = 'sent' | 'delivered' | 'read';

/** Message ids are bigserial strings: compared as numbers, never as text ("9" < "10"). */
export function upTo(id: string, mark: string): boolean {
  return BigInt(id) <= BigInt(mark);
}

/** The tick of one of my messages from the other side's marks. */
export function tickFrom(id: string, other: { deliveredUpTo: string; readUpTo: string }): Tick {
  if (upTo(id, other.readUpTo)) return 'read';
  if (upTo(id, other.deliveredUpTo)) return 'delivered';
  return 'sent';
}
