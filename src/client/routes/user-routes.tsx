import type { RouteObject } from 'react-router';
import { lazyRoute } from '../lib/lazy-route';
import { manageRoutes } from './manage-routes';

/** The shopper area's pages, inside the user layout and the user guard (see router.tsx). */
export const userRoutes: RouteObject[] = [
  lazyRoute(() => import('./user-dashboard-page'), 'UserDashboardPage', {
    path: 'user/dashboard',
  }),
  lazyRoute(() => import('./user/shops-page'), 'ShopsPage', { path: 'user/shops' }),
  lazyRoute(() => import('./user/shop-detail-page'), 'ShopDetailPage', { path: 'user/shops/:id' }),
  lazyRoute(() => import('./user/floors-page'), 'FloorsPage', { path: 'user/floors' }),
  lazyRoute(() => import('./user/offers-page'), 'OffersPage', { path: 'user/offers' }),
  lazyRoute(() => import('./user/compare-page'), 'ComparePage', { path: 'user/compare' }),
  // A shop manager's "My shops" (a user with a membership), in the same layout.
  ...manageRoutes,
  lazyRoute(() => import('./user/search-page'), 'SearchPage', { path: 'user/search' }),
];
