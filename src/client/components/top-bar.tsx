// The shopper's top bar: the logo, the area's links, the mall-wide search and the person's corner. One
// for the signed-in shopper's area (user-layout.tsx) and the public directory (public-layout.tsx).
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { type SearchArea, SearchBox } from '../features/search';
import { cn } from '../lib/cn';
import { LogoLink } from './logo-link';

export interface TopBarLink {
  to: string;
  label: string;
  /** Shown after the label (the Compare link's count). */
  extra?: ReactNode;
}

export function TopBar({
  links,
  search,
  children,
}: {
  links: readonly TopBarLink[];
  search: SearchArea;
  children: ReactNode;
}) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      {/* why: one nav that wraps below the logo row on phones, so its links exist only once */}
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 px-4 sm:px-6">
        <LogoLink className="h-16 shrink-0" />
        <nav
          aria-label="Main"
          className="order-last -mx-4 w-[calc(100%+2rem)] overflow-x-auto border-t border-slate-100 px-4 lg:order-none lg:mx-0 lg:w-auto lg:border-0 lg:px-0"
        >
          <ul className="flex gap-1 py-1.5 lg:py-0">
            {links.map(({ to, label, extra }) => (
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
                  {extra}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        {/* why: its own row under the logo on phones, beside the links from md up */}
        <SearchBox area={search} className="order-last w-full pb-2 lg:order-none lg:w-56 lg:pb-0 xl:w-72" />
        <div className="flex h-16 min-w-0 flex-1 basis-0 items-center justify-end gap-3">{children}</div>
      </div>
    </header>
  );
}
