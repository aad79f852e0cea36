import { Suspense, useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { Navigate, type RouteObject, useLocation, useNavigate, useRoutes } from 'react-router';
import { PAGE_PATHS } from '../shared/page-paths';
import { admitsRole, admitsSignedIn, RequireRole } from './components/require-role';
import { RouteErrorBoundary } from './components/route-error-boundary';
import { ScrollRestoration } from './components/scroll-restoration';
import { SkipLink } from './components/skip-link';
import { FullPageSpinner } from './components/spinner';
import { AuthProvider, useAuth } from './lib/auth';
import { lazyRoute, preloadMatches } from './lib/lazy-route';
import { useRouteChangeFocusNote } from './lib/page-title';
import { adminRoutes } from './routes/admin-routes';
import { LandingPage } from './routes/landing-page';
import { publicRoutes } from './routes/public-routes';
import { userRoutes } from './routes/user-routes';

// the admin area, the user area and the auth screens load as separate chunks, keeping the
// landing page small. Their layouts are pathless, so /admin and /user alone fall through to /404.
// Declarative routes (<BrowserRouter> + useRoutes) rather than createBrowserRouter: the data router
// adds ~17 KB gzip to every page, which would put the landing page over its 100 KB budget.
export const routes: RouteObject[] = [
  { index: true, element: <LandingPage /> },
  {
    ...lazyRoute(() => import('./components/auth-layout'), 'AuthLayout'),
    children: [
      lazyRoute(() => import('./routes/login-page'), 'LoginPage', { path: PAGE_PATHS.login }),
      lazyRoute(() => import('./routes/register-page'), 'RegisterPage', { path: PAGE_PATHS.register }),
      // A shop manager's invitation link: for visitors too (they sign in or register, then come back).
      lazyRoute(() => import('./routes/manage/invite-page'), 'InvitePage', {
        path: PAGE_PATHS.managerInvite,
      }),
    ],
  },
  lazyRoute(() => import('./routes/unauthorized-page'), 'UnauthorizedPage', {
    path: PAGE_PATHS.unauthorized,
  }),
  lazyRoute(() => import('./routes/not-found-page'), 'NotFoundPage', { path: PAGE_PATHS.notFound }),
  // What is counted and what is never kept (docs/decisions/035): for anyone, whatever the directory's setting.
  lazyRoute(() => import('./routes/privacy-page'), 'PrivacyPage', { path: PAGE_PATHS.privacy }),
  {
    // the signed-in areas share the query cache; react-query loads with them, not with the landing page
    ...lazyRoute(() => import('./components/query-boundary'), 'QueryBoundary'),
    children: [
      {
        // The public directory (docs/decisions/034): no guard, rendered on the server.
        ...lazyRoute(() => import('./components/public-layout'), 'PublicLayout'),
        children: publicRoutes,
      },
      {
        // biome-ignore lint/a11y/useValidAriaRole: `role` here is the account role, not an ARIA role
        element: <RequireRole role="admin" />,
        handle: admitsRole('admin'),
        children: [
          {
            ...lazyRoute(() => import('./components/admin-layout'), 'AdminLayout'),
            children: adminRoutes,
          },
        ],
      },
      {
        // biome-ignore lint/a11y/useValidAriaRole: `role` here is the account role, not an ARIA role
        element: <RequireRole role="user" />,
        handle: admitsRole('user'),
        children: [
          {
            ...lazyRoute(() => import('./components/user-layout'), 'UserLayout'),
            children: userRoutes,
          },
        ],
      },
      {
        // A person's own account: every signed-in role, in their own area's layout.
        element: <RequireRole />,
        handle: admitsSignedIn,
        children: [
          {
            ...lazyRoute(() => import('./components/account-layout'), 'AccountLayout'),
            children: [
              lazyRoute(() => import('./routes/account-page'), 'AccountPage', { path: PAGE_PATHS.account }),
            ],
          },
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to="/404" replace /> },
];

function Screens() {
  const location = useLocation();
  const { user, ready } = useAuth();
  // during render, so a navigation's downloads and reads start before its transition commits; again
  // when the session becomes known, since the guards decide before any read starts. (Not on the server:
  // a page's render starts after its reads, server-render.tsx.)
  useMemo(
    () => void (typeof window === 'undefined' || preloadMatches(routes, location, { user, ready })),
    [location, user, ready],
  );
  return useRoutes(routes, location);
}

/** The whole app inside <BrowserRouter>: session, scroll handling, error screen and the routes. */
export function App() {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useLayoutEffect(() => {
    navigateRef.current = navigate;
  });
  // stable, so the session context does not change on every navigation. The sign-in screen's code
  // is loaded first, so the navigation renders at once, together with the logout (lib/auth.tsx).
  const goToLogin = useCallback(async () => {
    await preloadMatches(routes, { pathname: '/login', search: '' });
    await navigateRef.current('/login', { replace: true });
  }, []);
  const { pathname } = useLocation();
  useRouteChangeFocusNote();

  return (
    <AuthProvider onSignedOut={goToLogin}>
      <SkipLink />
      <ScrollRestoration />
      <RouteErrorBoundary pathname={pathname}>
        {/* why: navigations are transitions, so this shows only on the first load; later the current
            screen stays up until the next one's chunk has arrived. */}
        <Suspense fallback={<FullPageSpinner />}>
          <Screens />
        </Suspense>
      </RouteErrorBoundary>
    </AuthProvider>
  );
}
