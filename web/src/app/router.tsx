import { Suspense, lazy, useEffect, useState } from 'react';
import { useTranslation } from '../lib/i18n/translator';
import {
  Navigate,
  Router,
  createHashHistory,
  navigatorOf,
  useLocation,
  type History,
  type Location,
  type NavigateOptions,
  type To,
} from '../lib/router/router';
import { PATHS_WITHOUT_SERVER_MESSAGES } from '../lib/i18n/locale-files';
import { FIRST_SCREEN_ROUTES } from './i18n/text-parts';
import { LazyPage, type PageNeeds } from './lazy-page';
import { PageLayout } from './layout/PageLayout';
import { loadTabBarLayout, loadedTabBarLayout } from './layout/load-tab-bar-layout';
import { ROUTES, type AppRoute } from './routes';

// The tab bar (its icons, the floating customer-service bubble) is not part of the log-in page's
// code: it loads with the first tab page (decision 036).
const TabBarLayout = lazy(() => loadTabBarLayout().then((module) => ({ default: module.TabBarLayout })));

/** What a route's page waits for besides its code. */
export function pageNeeds(route: AppRoute): PageNeeds {
  return { pageTexts: !FIRST_SCREEN_ROUTES.has(route.id), serverMessages: !PATHS_WITHOUT_SERVER_MESSAGES.has(route.path) };
}

function RouteScreen({ route }: { route: AppRoute }) {
  const { t } = useTranslation();
  // The tab layout itself when its code is here (a launch on a tab waits for it, decision 044), the
  // lazy one otherwise; chosen once, so a screen never remounts when the code arrives.
  const [Layout] = useState(() => loadedTabBarLayout() ?? TabBarLayout);
  const title = t(`routes.${route.id}`);
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  const needs = pageNeeds(route);
  const page = <LazyPage load={route.load} pageTexts={needs.pageTexts} serverMessages={needs.serverMessages} />;
  return route.tab === undefined ? (
    <PageLayout title={title} customHeader={route.customHeader}>
      {page}
    </PageLayout>
  ) : (
    <Suspense fallback={<div className="page-waiting" data-testid="page-waiting" />}>
      <Layout title={title}>{page}</Layout>
    </Suspense>
  );
}

const routeScreens = new Map(ROUTES.map((route) => [route.path, <RouteScreen key={route.path} route={route} />]));

/*
 * The app's own router (lib/router, decision 048) over a hash history: the router object gives the
 * code outside React (navigation helpers, the native shell, the live toasts) the location and
 * `navigate`.
 */
export interface AppRouter {
  readonly state: { readonly location: Location };
  navigate(to: To | number, options?: NavigateOptions): void;
  readonly history: History;
}

export function createAppRouter(): AppRouter {
  const history = createHashHistory();
  return {
    history,
    get state() {
      return { location: history.location };
    },
    navigate: navigatorOf(history),
  };
}

/** The page of the current path; an unknown path opens the entry page, which the start-up rule sorts out. */
function AppRoutes() {
  const { pathname } = useLocation();
  return routeScreens.get(pathname) ?? <Navigate to="/" replace />;
}

/** The app's routes on the router's history. */
export function RouterProvider({ router }: { router: AppRouter }) {
  return (
    <Router history={router.history}>
      <AppRoutes />
    </Router>
  );
}
