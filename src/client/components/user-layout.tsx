import { Outlet } from 'react-router';
import { CompareProvider, useCompare } from '../features/compare/compare-context';
import { displayName, useAuth } from '../lib/auth';
import { MAIN_ID } from '../lib/page-title';
import { Greeting } from './account-link';
import { LogoutButton } from './logout-button';
import { SiteFooter } from './site-footer';
import { TopBar } from './top-bar';

const links = [
  { to: '/user/dashboard', label: 'Dashboard' },
  { to: '/user/shops', label: 'Shops' },
  { to: '/user/floors', label: 'Floors' },
  { to: '/user/offers', label: 'Offers' },
  { to: '/user/compare', label: 'Compare' },
];

export function UserLayout() {
  return (
    // the comparison list outlives each page of the area and its count shows in the navigation
    <CompareProvider>
      <UserShell />
    </CompareProvider>
  );
}

function UserShell() {
  const { user } = useAuth();
  // a shop manager (a user with a membership) also has "My shops"
  const navLinks =
    (user?.managedShopIds ?? []).length > 0 ? [...links, { to: '/manage', label: 'My shops' }] : links;
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <TopBar
        links={navLinks.map((link) =>
          link.to === '/user/compare' ? { ...link, extra: <CompareCount /> } : link,
        )}
        search="user"
      >
        <Greeting name={user ? displayName(user) : ''} />
        <LogoutButton />
      </TopBar>
      <main id={MAIN_ID} tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        <Outlet />
      </main>
      <SiteFooter links={[{ to: '/privacy', label: 'Privacy' }]} />
    </div>
  );
}

/** The number of compared products beside the Compare link: the link reads "Compare (2 products)". */
function CompareCount() {
  const { items } = useCompare();
  if (items.length === 0) return null;
  return (
    <>
      <span className="sr-only"> ({items.length === 1 ? '1 product' : `${items.length} products`})</span>
      <span
        aria-hidden="true"
        className="inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-indigo-600 px-1.5 text-xs font-semibold text-white"
      >
        {items.length}
      </span>
    </>
  );
}
