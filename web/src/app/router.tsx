import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, createHashRouter, type RouteObject } from 'react-router';
import { LazyPage } from './lazy-page';
import { PageLayout } from './layout/PageLayout';
import { TabBarLayout } from './layout/TabBarLayout';
import { ROUTES, type AppRoute } from './routes';

function RouteScreen({ route }: { route: AppRoute }) {
  const { t } = useTranslation();
  const title = t(`routes.${route.id}`);
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  const page = <LazyPage load={route.load} />;
  return route.tab === undefined ? (
    <PageLayout title={title} customHeader={route.customHeader}>
      {page}
    </PageLayout>
  ) : (
    <TabBarLayout title={title}>{page}</TabBarLayout>
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
