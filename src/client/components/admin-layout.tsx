import { useQuery } from '@tanstack/react-query';
import {
  BadgeCheck,
  Building2,
  CalendarDays,
  ChartLine,
  Clock,
  History,
  Layers,
  LayoutDashboard,
  type LucideIcon,
  Menu,
  Package,
  Percent,
  Replace,
  Store,
  X,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { offerReviewsQuery } from '../features/managers';
import { SearchBox } from '../features/search';
import { displayName, useAuth } from '../lib/auth';
import { cn } from '../lib/cn';
import { inertOutside } from '../lib/inert-outside';
import { MAIN_ID } from '../lib/page-title';
import { Greeting } from './account-link';
import { LogoLink } from './logo-link';
import { LogoutButton } from './logout-button';

const links: Array<{ to: string; label: string; icon: LucideIcon }> = [
  { to: '/admin/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/admin/shops', label: 'Manage Shops', icon: Store },
  { to: '/admin/products', label: 'Manage Products', icon: Package },
  { to: '/admin/offers', label: 'Manage Offers', icon: Percent },
  // The mall's and the shops' events (issue 35).
  { to: '/admin/events', label: 'Events', icon: CalendarDays },
  { to: '/admin/categories', label: 'Categories & Floors', icon: Layers },
  // Beyond the spec's links: who changed what (docs/decisions/012).
  { to: '/admin/activity', label: 'Activity', icon: History },
  // Offers shop managers submitted, waiting for an admin (docs/decisions/015).
  { to: '/admin/approvals', label: 'Approvals', icon: BadgeCheck },
  // The mall's own opening hours (docs/decisions/017).
  { to: '/admin/mall-hours', label: 'Mall hours', icon: Clock },
  // The mall's name, address, logo and web address for its public pages (docs/decisions/034).
  { to: '/admin/mall', label: 'Mall profile', icon: Building2 },
  // What shoppers look at and search for, and the synonyms that fix what they did not find (035).
  { to: '/admin/insights', label: 'Insights', icon: ChartLine },
  { to: '/admin/synonyms', label: 'Search synonyms', icon: Replace },
];

export function AdminLayout() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const waiting = useWaitingApprovals();
  const [shownPath, setShownPath] = useState(pathname);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const sidebarRef = useRef<HTMLElement>(null);
  const overlayRef = useRef<HTMLDivElement>(null);

  // close the drawer on any navigation (links, back button), adjusting state during render.
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    }
    // the open drawer is modal (docs/decisions/024): only its button and its links take focus, so Tab
    // cannot wander to the search box or the page behind it. Closed on widening, where it is a sidebar.
    const wide = window.matchMedia('(min-width: 48rem)');
    const onWiden = () => {
      if (wide.matches) setOpen(false);
    };
    const kept = [toggleRef.current, sidebarRef.current, overlayRef.current].filter(
      (element) => element !== null,
    );
    const restore = inertOutside(kept);
    document.addEventListener('keydown', onKeyDown);
    wide.addEventListener('change', onWiden);
    return () => {
      restore();
      document.removeEventListener('keydown', onKeyDown);
      wide.removeEventListener('change', onWiden);
    };
  }, [open]);

  return (
    <div className="min-h-dvh bg-slate-50">
      <header className="sticky top-0 z-40 flex min-h-16 flex-wrap items-center gap-x-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur sm:px-6 md:ml-64">
        <button
          ref={toggleRef}
          type="button"
          className="-ml-1 rounded-lg p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 md:hidden"
          aria-label={open ? 'Close menu' : 'Open menu'}
          aria-expanded={open}
          aria-controls="admin-sidebar"
          onClick={() => setOpen((value) => !value)}
        >
          {open ? (
            <X aria-hidden="true" className="size-6" />
          ) : (
            <Menu aria-hidden="true" className="size-6" />
          )}
        </button>
        <LogoLink className="md:hidden" />
        {/* why: a row of its own under the bar on phones, in the bar from md up */}
        <SearchBox area="admin" className="order-last w-full pb-2 md:order-none md:w-72 md:pb-0 lg:w-96" />
        <div className="ml-auto flex h-16 min-w-0 flex-1 basis-0 items-center justify-end gap-3">
          <Greeting name={user ? displayName(user) : ''} />
          <LogoutButton />
        </div>
      </header>

      {open ? (
        // hidden from assistive tech; keyboard users close the drawer with Escape or the menu button.
        // Not made inert with the rest: a tap on it closes the drawer.
        <div
          ref={overlayRef}
          aria-hidden="true"
          // why: over the top bar's search row (z-40), which is inert while the drawer is open
          className="fixed inset-x-0 top-16 bottom-0 z-45 bg-slate-900/40 md:hidden"
          onClick={() => setOpen(false)}
        />
      ) : null}

      <aside
        ref={sidebarRef}
        id="admin-sidebar"
        className={cn(
          open ? 'flex' : 'hidden',
          // why: on a phone the top bar has a second row (the search box); the drawer covers it, from
          // under the menu button, so its first link is not hidden behind the bar
          'fixed top-16 bottom-0 left-0 z-50 w-64 flex-col md:z-30 border-r border-slate-200 bg-white shadow-xl',
          'transition-transform starting:-translate-x-full md:top-0 md:flex md:shadow-none md:transition-none',
        )}
      >
        <div className="hidden h-16 items-center border-b border-slate-200 px-6 md:flex">
          <LogoLink />
        </div>
        <nav aria-label="Admin" className="flex-1 overflow-y-auto p-3">
          <ul className="space-y-1">
            {links.map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  // "Approvals, 3 waiting": the badge's number, read as part of the link's name
                  aria-label={
                    to === '/admin/approvals' && waiting > 0 ? `${label}, ${waiting} waiting` : undefined
                  }
                  className={({ isActive }) =>
                    cn(
                      'flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors',
                      'focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600',
                      isActive
                        ? 'bg-indigo-50 text-indigo-700'
                        : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                    )
                  }
                >
                  <Icon aria-hidden="true" className="size-5 shrink-0" />
                  {label}
                  {to === '/admin/approvals' && waiting > 0 ? <ApprovalsBadge total={waiting} /> : null}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>

      <main id={MAIN_ID} tabIndex={-1} className="px-4 py-6 sm:px-6 md:ml-64 md:px-8 md:py-8">
        <Outlet />
      </main>
    </div>
  );
}

/** How many offers wait for an admin: read when the area opens, on focus and every minute. */
function useWaitingApprovals(): number {
  const reviews = useQuery({ ...offerReviewsQuery, refetchInterval: 60_000 });
  return reviews.data?.total ?? 0;
}

/** The number beside the Approvals link (the link's name says it in words). */
function ApprovalsBadge({ total }: { total: number }) {
  return (
    <span
      aria-hidden="true"
      className="ml-auto inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-amber-500 px-1.5 text-xs font-semibold text-slate-950"
    >
      {total}
    </span>
  );
}
