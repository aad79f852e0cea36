import type { RouteObject } from 'react-router';

/** The shopper area's pages, inside the user layout and the user guard (see router.tsx). */
export const userRoutes: RouteObject[] = [
  {
    path: 'user/dashboard',
    lazy: async () => ({ Component: (await import('./user-dashboard-page')).UserDashboardPage }),
  },
];
