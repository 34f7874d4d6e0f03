import { useEffect, useState } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import ConfigProvider from 'antd-mobile/es/components/config-provider';
import { useTranslation } from '../lib/i18n/translator';
import { isLocale, type Locale } from '@custos/contract';
import { getConfig } from '../api/get-config';
import { firstFrameHold, firstRenderCommitted } from '../lib/api/first-frame';
import { credential } from '../lib/auth/credential';
import { uiKitLocale } from '../lib/i18n/i18n';
import { createQueryClient } from '../lib/query/query-client';
import { showToast } from '../lib/toast';
import { AppUpdate } from '../lib/app-update/AppUpdate';
import { ConnectionTimeout } from './ConnectionTimeout';
import type * as LiveSessionModule from './live-session';
import { RouterProvider, type createAppRouter } from './router';

type LiveSession = typeof LiveSessionModule;

/** The live-event code, fetched the first time a member is logged in (null before). */
function useLiveSession(): LiveSession | null {
  const [live, setLive] = useState<LiveSession | null>(null);
  useEffect(() => {
    let active = true;
    const load = (token: string | null) => {
      if (!token) return;
      // Its code is not part of the first frame (decision 048).
      void Promise.resolve(firstFrameHold())
        .then(() => import('./live-session'))
        .then((module) => {
          if (active) setLive(module);
        });
    };
    load(credential.get());
    const unsubscribe = credential.subscribe(load);
    return () => {
      active = false;
      unsubscribe();
    };
  }, []);
  return live;
}

const KEFU_PATH = '/pages/kefu/kefu';
const ORDER_DETAIL_PATH = '/pages/order_detail/order_detail';

/**
 * One live channel while a member is logged in; each event is a toast, and the query domains it
 * changed are fetched again (live-invalidation.ts). A component of its own, so the channel's code
 * arriving re-renders it alone, not the whole app (decision 044).
 */
function LiveEvents({ router, queryClient }: { router: ReturnType<typeof createAppRouter>; queryClient: QueryClient }) {
  const { t } = useTranslation();
  const live = useLiveSession();
  useEffect(() => live?.startLiveChannel(), [live]);
  useEffect(
    () =>
      live?.onLiveEvent((event) => {
        // The chat screen shows an agent's message itself; a toast there would repeat it.
        if (event.data.kind === 'chat.message' && router.state.location.pathname === KEFU_PATH) return;
        // Likewise an OTC order's step or chat message on that order's own screen, which shows it.
        const { pathname, search } = router.state.location;
        if (
          (event.data.kind === 'otc.order' || event.data.kind === 'otc.chat') &&
          pathname === ORDER_DETAIL_PATH &&
          new URLSearchParams(search).get('id') === event.data.orderId
        ) {
          return;
        }
        const text = live.liveToastText(t, event);
        if (text) showToast(text);
      }),
    [live, t, router],
  );
  useEffect(
    () => live?.onLiveEvent((event) => void live.invalidateForLiveEvent(queryClient, event.data.kind)),
    [live, queryClient],
  );
  return null;
}

/** The app; `queryClient` is the one the launch filled (decision 047), a new one if none. */
export function App({
  router,
  queryClient: launchClient,
}: {
  router: ReturnType<typeof createAppRouter>;
  queryClient?: QueryClient;
}) {
  const { i18n } = useTranslation();
  const locale: Locale = isLocale(i18n.language) ? i18n.language : 'zh-Hans';
  const [queryClient] = useState(() => launchClient ?? createQueryClient());

  // The first render's frame: reads held for it go out after it is drawn (decision 048).
  useEffect(() => firstRenderCommitted(), []);

  // What one member's session read must never show in the next one's (log-out, account switch).
  useEffect(() => credential.subscribe(() => queryClient.clear()), [queryClient]);

  // The platform configuration is the first call of every launch; its failures follow the client's
  // rules (toast, 401 relaunch, 300/4900/4901 redirects) like any other call.
  useEffect(() => {
    getConfig().catch(() => undefined);
  }, []);

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={uiKitLocale(locale)}>
        <LiveEvents router={router} queryClient={queryClient} />
        <RouterProvider router={router} />
        <AppUpdate />
        <ConnectionTimeout />
      </ConfigProvider>
    </QueryClientProvider>
  );
}
