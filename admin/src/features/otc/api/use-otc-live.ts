import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { otcKeys } from './keys';
import { openOtcChannel } from './otc-channel';

/** While the channel is down (or not yet open), OTC screens ask again this often. */
export const OTC_FALLBACK_REFETCH_MS = 15_000;

/**
 * Keeps the OTC screens live: every appeal, order step or chat message (on any server instance)
 * invalidates the `otc` domain, so the queue, the lists and an open order refresh without a reload.
 * Answers whether the channel is open; until it is, screens refetch on an interval instead.
 */
export function useOtcLive(): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(
    () =>
      openOtcChannel(
        (event) => {
          const orderId = event.data.orderId;
          if (event.data.kind === 'otc.chat') {
            void queryClient.invalidateQueries({ queryKey: otcKeys.chat(orderId) });
            return;
          }
          void queryClient.invalidateQueries({ queryKey: otcKeys.all });
        },
        () => setConnected(true),
      ),
    [queryClient],
  );
  return connected;
}
