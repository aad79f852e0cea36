import type { RouteObject } from 'react-router';

/** The admin area's pages, inside the admin layout and the admin guard (see router.tsx). */
export const adminRoutes: RouteObject[] = [
  {
    path: 'admin/dashboard',
    lazy: async () => ({ Component: (await import('./admin-dashboard-page')).AdminDashboardPage }),
  },
];
