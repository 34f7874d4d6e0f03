import { Suspense, lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, createHashRouter, type RouteObject } from 'react-router';
import { FIRST_SCREEN_ROUTES } from './i18n/text-parts';
import { LazyPage } from './lazy-page';
import { PageLayout } from './layout/PageLayout';
import { ROUTES, type AppRoute } from './routes';

// The tab bar (its icons, the floating customer-service bubble) is not part of the log-in page's
// code: it loads with the first tab page (decision 036).
const TabBarLayout = lazy(() => import('./layout/TabBarLayout').then((module) => ({ default: module.TabBarLayout })));

function RouteScreen({ route }: { route: AppRoute }) {
  const { t } = useTranslation();
  const title = t(`routes.${route.id}`);
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  const page = <LazyPage load={route.load} pageTexts={!FIRST_SCREEN_ROUTES.has(route.id)} />;
  return route.tab === undefined ? (
    <PageLayout title={title} customHeader={route.customHeader}>
      {page}
    </PageLayout>
  ) : (
    <Suspense fallback={<div className="page-waiting" data-testid="page-waiting" />}>
      <TabBarLayout title={title}>{page}</TabBarLayout>
    </Suspense>
  );
}

const routeObjects: RouteObject[] = [
  ...ROUTES.map((route) => ({ path: route.path, element: <RouteScreen key={route.path} route={route} /> })),
  // Unknown hash paths open the entry page, which the start-up rule then sorts out.
  { path: '*', element: <Navigate to="/" replace /> },
];

export function createAppRouter() {
  return createHashRouter(routeObjects);
}
