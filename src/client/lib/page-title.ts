import { useEffect, useLayoutEffect } from 'react';
import { useLocation } from 'react-router';

/** The app's name: the last part of every document title, and the whole title of the landing page. */
export const APP_NAME = 'Super Mall';

/** The id of every screen's <main>: the skip link's target. */
export const MAIN_ID = 'main-content';

/**
 * The mall's own name where a server-rendered page names it (its profile, docs/decisions/034: the page's
 * `application-name`), else the app's.
 */
function mallName(): string {
  if (typeof document === 'undefined') return APP_NAME;
  return document.querySelector<HTMLMetaElement>('meta[name="application-name"]')?.content || APP_NAME;
}

/** "Manage Shops · Super Mall"; the landing page (no title of its own) is just "Super Mall". */
export function documentTitle(title: string): string {
  const name = mallName();
  return title && title !== APP_NAME && title !== name ? `${title} · ${name}` : name;
}

// The path whose screen last took its title. Null until the first screen after the document loaded
// has: that one keeps the browser's own focus (a screen reader starts at the top of a loaded page);
// every later new path moves focus to its heading (docs/decisions/024).
let settledPath: string | null = null;

// What had focus when the path last changed: if focus is elsewhere by the time the new screen's title
// is known (a record still loading), the person has moved it themselves, and it stays where they put it.
let focusedAtRouteChange: Element | null = null;

/** Called once, by the app: notes where focus was when the path changed (before the screens' effects). */
export function useRouteChangeFocusNote(): void {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    void pathname;
    focusedAtRouteChange = document.activeElement;
  }, [pathname]);
}

/**
 * Every screen calls this once with its title (docs/decisions/024): it sets the document's title and,
 * the first time the screen's title is known after a route change, moves focus to the screen's h1 so
 * that a screen reader announces the new page and Tab continues from there. Pass `undefined` while the
 * title is not known yet (the record is loading): focus moves when it is, with the heading rendered.
 */
export function usePageTitle(title: string | undefined): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (title === undefined) return;
    document.title = documentTitle(title);
    if (settledPath === pathname) return;
    const firstScreen = settledPath === null;
    settledPath = pathname;
    const active = document.activeElement;
    const movedSince = active !== null && active !== document.body && active !== focusedAtRouteChange;
    if (!firstScreen && !movedSince) focusPageHeading();
  }, [title, pathname]);
}

/**
 * Focuses the screen's h1 (made focusable by script only, tabIndex -1) without scrolling: the scroll
 * position is the scroll restoration's. A screen without an h1 focuses its <main>.
 */
export function focusPageHeading(): void {
  const main = document.getElementById(MAIN_ID);
  const heading = main?.querySelector('h1') ?? document.querySelector('h1');
  if (!heading) {
    main?.focus({ preventScroll: true });
    return;
  }
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
}
