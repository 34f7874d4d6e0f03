import { useEffect, useRef } from 'react';
import type { MemberEventKind } from '@custos/contract';
import { onLiveEvent } from './live-channel';

/** Events that change a withdrawal's state. */
export const WITHDRAWAL_EVENTS: readonly MemberEventKind[] = ['withdrawal.approved', 'withdrawal.paid', 'withdrawal.refunded'];
/** Events that change the member's balances. */
export const BALANCE_EVENTS: readonly MemberEventKind[] = ['deposit.credited', ...WITHDRAWAL_EVENTS];

/**
 * Refreshes what a screen shows when a live event of one of `kinds` arrives (the app has no query
 * cache yet: each screen says what to reload, decision 022).
 */
export function useLiveRefresh(kinds: readonly MemberEventKind[], reload: () => void): void {
  const latest = useRef(reload);
  latest.current = reload;
  const key = kinds.join(',');
  useEffect(() => {
    const wanted = new Set(key.split(','));
    return onLiveEvent((event) => {
      if (wanted.has(event.data.kind)) latest.current();
    });
  }, [key]);
}
