import type { MouseEvent } from 'react';
import { MAIN_ID } from '../lib/page-title';

/**
 * "Skip to main content": the first thing Tab reaches on every screen, shown only while focused. It
 * moves focus itself instead of following the #hash, which would add a history entry to the router.
 */
export function SkipLink() {
  function skip(event: MouseEvent<HTMLAnchorElement>) {
    const main = document.getElementById(MAIN_ID);
    if (!main) return;
    event.preventDefault();
    main.focus({ preventScroll: true });
    main.scrollIntoView({ block: 'start' });
  }
  return (
    <a
      href={`#${MAIN_ID}`}
      onClick={skip}
      className="sr-only rounded-lg bg-white px-4 py-2 text-sm font-semibold text-indigo-700 shadow-lg ring-2 ring-indigo-600 focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
    >
      Skip to main content
    </a>
  );
}
