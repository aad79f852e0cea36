// The public directory's frame (docs/decisions/034): the mall's pages for anyone, rendered on the server.
// Visitors see Sign in and Register; signed-in people their own way back (their dashboard, their name,
// Logout) once the session is known — the page is drawn before that, for everyone alike.
import { useQuery } from '@tanstack/react-query';
import { Navigate, NavLink, Outlet } from 'react-router';
import { dashboardPath } from '../../shared/roles';
import { SearchBox } from '../features/search';
import { settingsQuery } from '../features/settings';
import { displayName, useAuth } from '../lib/auth';
import { cn } from '../lib/cn';
import { DirectoryAreaProvider, PUBLIC_AREA } from '../lib/directory-area';
import { MAIN_ID } from '../lib/page-title';
import { Greeting } from './account-link';
import { LogoLink } from './logo-link';
import { LogoutButton } from './logout-button';
import { buttonClass } from './ui/button';

const links = [
  { to: PUBLIC_AREA.shops, label: 'Shops' },
  { to: PUBLIC_AREA.offers, label: 'Offers' },
  { to: PUBLIC_AREA.floors, label: 'Floors' },
];

export function PublicLayout() {
  // The operator turned the public directory off (MALL_PUBLIC_DIRECTORY=off): its pages are not there.
  const settings = useQuery(settingsQuery);
  if (settings.data?.publicDirectory === false) return <Navigate to="/404" replace />;
  return (
    <DirectoryAreaProvider value={PUBLIC_AREA}>
      <div className="flex min-h-dvh flex-col bg-slate-50">
        <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 px-4 sm:px-6">
            <LogoLink className="h-16 shrink-0" />
            <nav
              aria-label="Main"
              className="order-last -mx-4 w-[calc(100%+2rem)] overflow-x-auto border-t border-slate-100 px-4 md:order-none md:mx-0 md:w-auto md:border-0 md:px-0"
            >
              <ul className="flex gap-1 py-1.5 md:py-0">
                {links.map(({ to, label }) => (
                  <li key={to} className="shrink-0">
                    <NavLink
                      to={to}
                      className={({ isActive }) =>
                        cn(
                          'flex min-h-10 items-center rounded-lg px-3 py-2 text-sm font-medium transition-colors',
                          'focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600',
                          isActive
                            ? 'bg-indigo-50 text-indigo-700'
                            : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                        )
                      }
                    >
                      {label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
            <SearchBox
              area="public"
              className="order-last w-full pb-2 md:order-none md:w-56 md:pb-0 lg:w-72"
            />
            <div className="flex h-16 min-w-0 flex-1 basis-0 items-center justify-end gap-3">
              <Visitor />
            </div>
          </div>
        </header>
        <main id={MAIN_ID} tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
          <Outlet />
        </main>
        <footer className="border-t border-slate-200 bg-white">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-6 text-sm text-slate-600 sm:px-6">
            <p>Every shop, its hours and today's offers.</p>
            <ul className="flex gap-4">
              {links.map(({ to, label }) => (
                <li key={to}>
                  <a href={to} className="underline-offset-4 hover:text-slate-900 hover:underline">
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </footer>
      </div>
    </DirectoryAreaProvider>
  );
}

/**
 * Sign in / Register, or the signed-in person's own way back once the session is known. Shown before
 * that (the page is the same for everyone when it arrives, and works without JavaScript).
 */
function Visitor() {
  const { user, ready } = useAuth();
  if (ready && user)
    return (
      <>
        <a
          href={dashboardPath(user.role)}
          className={buttonClass('secondary', 'md', 'hidden shrink-0 sm:inline-flex')}
        >
          My dashboard
        </a>
        <Greeting name={displayName(user)} />
        <LogoutButton />
      </>
    );
  return (
    <div className="flex items-center gap-2">
      <a
        href="/login"
        className="rounded-lg px-3 py-2 text-sm font-semibold text-slate-700 hover:text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        Sign in
      </a>
      <a href="/register" className={buttonClass('primary', 'md', 'shrink-0')}>
        Register
      </a>
    </div>
  );
}
