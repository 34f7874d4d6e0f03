import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  CONTRACT_QUOTE_STREAM_EVENT,
  contractQuoteEvent,
  langHeaderFor,
  SseParser,
  type ContractProducts,
} from '@custos/contract';
import { credential } from '../../lib/auth/credential';
import { currentLocale } from '../../lib/i18n/i18n';
import { contractKeys } from './api/keys';
import { applyQuote } from './contracts';

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/** While the stream is down, the products (and with them every floating P&L) are asked for this often instead. */
export const QUOTES_FALLBACK_REFETCH_MS = 5_000;

/**
 * The platform's bid and ask as ticks arrive (GET /api/contracts/quotes, server-sent events read with
 * fetch so the token stays in a header; `connect-src 'self'` allows it), open while the contracts
 * segment is shown. Each quote is written into the products in the query cache, and every open
 * order's floating P&L follows from it on screen. After a drop the stream opens again with
 * `Last-Event-ID` and the products are read afresh. Answers whether the stream is open.
 */
export function useQuoteStream(): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    let stopped = false;
    let controller: AbortController | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let lastEventId: string | undefined;
    let failures = 0;

    const connect = async () => {
      const token = credential.get();
      if (!token || stopped) return;
      controller = new AbortController();
      const headers: Record<string, string> = {
        Authorization: token,
        lang: langHeaderFor(currentLocale()),
        accept: 'text/event-stream',
      };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      try {
        const response = await fetch('api/contracts/quotes', { headers, signal: controller.signal, cache: 'no-store' });
        if (!response.ok || !response.body) throw new Error(`quotes: HTTP ${response.status}`);
        setConnected(true);
        failures = 0;
        // Ticks missed while it was down: the products are read again.
        void queryClient.invalidateQueries({ queryKey: contractKeys.products() });
        const parser = new SseParser((frame) => {
          if (frame.event !== CONTRACT_QUOTE_STREAM_EVENT) return;
          if (frame.id) lastEventId = frame.id;
          const parsed = contractQuoteEvent.safeParse(JSON.parse(frame.data));
          if (!parsed.success) return;
          queryClient.setQueryData<ContractProducts>(contractKeys.products(), (products) =>
            products ? { ...products, items: applyQuote(products.items, parsed.data) } : products,
          );
        });
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.push(decoder.decode(value, { stream: true }));
        }
      } catch {
        // Dropped or unreachable: opened again below.
      }
      setConnected(false);
      if (stopped) return;
      const delayMs = Math.min(FIRST_RETRY_MS * 2 ** Math.min(failures, 5), MAX_RETRY_MS);
      failures += 1;
      retryTimer = setTimeout(() => void connect(), delayMs);
    };

    void connect();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      controller?.abort();
    };
  }, [queryClient]);

  return connected;
}
