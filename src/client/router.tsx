import { createBrowserRouter, Navigate, Outlet, ScrollRestoration } from 'react-router';
import { RequireRole } from './components/require-role';
import { RouteError } from './components/route-error';
import { FullPageSpinner } from './components/spinner';
import { adminRoutes } from './routes/admin-routes';
import { LandingPage } from './routes/landing-page';
import { NotFoundPage } from './routes/not-found-page';
import { UnauthorizedPage } from './routes/unauthorized-page';
import { userRoutes } from './routes/user-routes';

function RootLayout() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

// why: the admin area, the user area and the auth screens load as separate chunks, keeping the
// landing page small. Their layouts are pathless, so /admin and /user alone fall through to /404.
export const router = createBrowserRouter([
  {
    Component: RootLayout,
    HydrateFallback: FullPageSpinner,
    ErrorBoundary: RouteError,
    children: [
      { index: true, Component: LandingPage },
      {
        lazy: async () => ({ Component: (await import('./components/auth-layout')).AuthLayout }),
        children: [
          {
            path: 'login',
            lazy: async () => ({ Component: (await import('./routes/login-page')).LoginPage }),
          },
          {
            path: 'register',
            lazy: async () => ({ Component: (await import('./routes/register-page')).RegisterPage }),
          },
        ],
      },
      { path: 'unauthorized', Component: UnauthorizedPage },
      { path: '404', Component: NotFoundPage },
      {
        // biome-ignore lint/a11y/useValidAriaRole: `role` here is the account role, not an ARIA role
        element: <RequireRole role="admin" />,
        children: [
          {
            lazy: async () => ({ Component: (await import('./components/admin-layout')).AdminLayout }),
            children: adminRoutes,
          },
        ],
      },
      {
        // biome-ignore lint/a11y/useValidAriaRole: `role` here is the account role, not an ARIA role
        element: <RequireRole role="user" />,
        children: [
          {
            lazy: async () => ({ Component: (await import('./components/user-layout')).UserLayout }),
            children: userRoutes,
          },
        ],
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
]);
