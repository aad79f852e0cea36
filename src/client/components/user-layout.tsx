import { NavLink, Outlet } from 'react-router';
import { CompareProvider, useCompare } from '../features/compare/compare-context';
import { SearchBox } from '../features/search';
import { displayName, useAuth } from '../lib/auth';
import { cn } from '../lib/cn';
import { MAIN_ID } from '../lib/page-title';
import { Greeting } from './account-link';
import { LogoLink } from './logo-link';
import { LogoutButton } from './logout-button';

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
    <div className="min-h-dvh bg-slate-50">
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
        {/* why: one nav that wraps below the logo row on phones, so its links exist only once */}
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 px-4 sm:px-6">
          <LogoLink className="h-16 shrink-0" />
          <nav
            aria-label="Main"
            className="order-last -mx-4 w-[calc(100%+2rem)] overflow-x-auto border-t border-slate-100 px-4 md:order-none md:mx-0 md:w-auto md:border-0 md:px-0"
          >
            <ul className="flex gap-1 py-1.5 md:py-0">
              {navLinks.map(({ to, label }) => (
                <li key={to} className="shrink-0">
                  <NavLink
                    to={to}
                    className={({ isActive }) =>
                      cn(
                        'flex min-h-10 items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
                        'focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600',
                        isActive
                          ? 'bg-indigo-50 text-indigo-700'
                          : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                      )
                    }
                  >
                    {label}
                    {to === '/user/compare' ? <CompareCount /> : null}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          {/* why: its own row under the logo on phones, beside the links from md up */}
          <SearchBox area="user" className="order-last w-full pb-2 md:order-none md:w-56 md:pb-0 lg:w-72" />
          <div className="flex h-16 min-w-0 flex-1 basis-0 items-center justify-end gap-3">
            <Greeting name={user ? displayName(user) : ''} />
            <LogoutButton />
          </div>
        </div>
      </header>
      <main id={MAIN_ID} tabIndex={-1} className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <Outlet />
      </main>
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
