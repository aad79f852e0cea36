import type { RouteObject } from 'react-router';
import { PAGE_PATHS } from '../../shared/page-paths';
import { lazyRoute } from '../lib/lazy-route';
import { manageRoutes } from './manage-routes';

/** The shopper area's pages, inside the user layout and the user guard (see router.tsx). */
export const userRoutes: RouteObject[] = [
  lazyRoute(() => import('./user-dashboard-page'), 'UserDashboardPage', {
    path: PAGE_PATHS.userDashboard,
  }),
  lazyRoute(() => import('./user/shops-page'), 'ShopsPage', { path: PAGE_PATHS.userShops }),
  lazyRoute(() => import('./user/shop-detail-page'), 'ShopDetailPage', { path: PAGE_PATHS.userShop }),
  lazyRoute(() => import('./user/floors-page'), 'FloorsPage', { path: PAGE_PATHS.userFloors }),
  lazyRoute(() => import('./user/offers-page'), 'OffersPage', { path: PAGE_PATHS.userOffers }),
  lazyRoute(() => import('./user/compare-page'), 'ComparePage', { path: PAGE_PATHS.userCompare }),
  // A shop manager's "My shops" (a user with a membership), in the same layout.
  ...manageRoutes,
  lazyRoute(() => import('./user/search-page'), 'SearchPage', { path: PAGE_PATHS.userSearch }),
];
