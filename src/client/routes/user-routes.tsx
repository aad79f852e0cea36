import type { RouteObject } from 'react-router';
import { lazyRoute } from '../lib/lazy-route';

/** The shopper area's pages, inside the user layout and the user guard (see router.tsx). */
export const userRoutes: RouteObject[] = [
  lazyRoute(() => import('./user-dashboard-page'), 'UserDashboardPage', {
    path: 'user/dashboard',
  }),
  lazyRoute(() => import('./user/shops-page'), 'ShopsPage', { path: 'user/shops' }),
  lazyRoute(() => import('./user/shop-detail-page'), 'ShopDetailPage', { path: 'user/shops/:id' }),
  lazyRoute(() => import('./user/offers-page'), 'OffersPage', { path: 'user/offers' }),
  lazyRoute(() => import('./user/compare-page'), 'ComparePage', { path: 'user/compare' }),
  lazyRoute(() => import('./user/search-page'), 'SearchPage', { path: 'user/search' }),
];
