// The public directory's frame (docs/decisions/034): the mall's pages for anyone, rendered on the server.
// Visitors see Sign in and Register; signed-in people their own way back (their dashboard, their name,
// Logout) once the session is known — the page is drawn before that, for everyone alike.
import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet } from 'react-router';
import { dashboardPath } from '../../shared/roles';
import { settingsQuery } from '../features/settings';
import { displayName, useAuth } from '../lib/auth';
import { DirectoryAreaProvider, PUBLIC_AREA } from '../lib/directory-area';
import { MAIN_ID } from '../lib/page-title';
import { Greeting } from './account-link';
import { LogoutButton } from './logout-button';
import { SiteFooter } from './site-footer';
import { TopBar } from './top-bar';
import { buttonClass } from './ui/button';

const links = [
  { to: PUBLIC_AREA.shops, label: 'Shops' },
  { to: PUBLIC_AREA.offers, label: 'Offers' },
  { to: PUBLIC_AREA.floors, label: 'Floors' },
  { to: '/events', label: 'Events' },
];
/** The footer's: the directory's pages, then what is counted and never kept (docs/decisions/035). */
const footerLinks = [...links, { to: '/privacy', label: 'Privacy' }];

export function PublicLayout() {
  // The operator turned the public directory off (MALL_PUBLIC_DIRECTORY=off): its pages are not there.
  const settings = useQuery(settingsQuery);
  if (settings.data?.publicDirectory === false) return <Navigate to="/404" replace />;
  return (
    <DirectoryAreaProvider value={PUBLIC_AREA}>
      <div className="flex min-h-dvh flex-col bg-slate-50">
        <TopBar links={links} search="public">
          <Visitor />
        </TopBar>
        <main id={MAIN_ID} tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
          <Outlet />
        </main>
        <SiteFooter note="Every shop, its hours and today's offers." links={footerLinks} />
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
        <a href={dashboardPath(user.role)} className={buttonClass('secondary', 'md', 'shrink-0')}>
          My dashboard
        </a>
        {/* why: the greeting has room beside the two buttons on a wide screen only (narrower, it ran
            under Logout) */}
        <div className="hidden min-w-0 xl:flex">
          <Greeting name={displayName(user)} />
        </div>
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
