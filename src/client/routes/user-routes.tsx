import type { RouteObject } from 'react-router';

/** The shopper area's pages, inside the user layout and the user guard (see router.tsx). */
export const userRoutes: RouteObject[] = [
  {
    path: 'user/dashboard',
    lazy: async () => ({ Component: (await import('./user-dashboard-page')).UserDashboardPage }),
  },
  {
    path: 'user/shops',
    lazy: async () => ({ Component: (await import('./user/shops-page')).ShopsPage }),
  },
  {
    path: 'user/shops/:id',
    lazy: async () => ({ Component: (await import('./user/shop-detail-page')).ShopDetailPage }),
  },
  {
    path: 'user/offers',
    lazy: async () => ({ Component: (await import('./user/offers-page')).OffersPage }),
  },
  {
    path: 'user/compare',
    lazy: async () => ({ Component: (await import('./user/compare-page')).ComparePage }),
  },
];
