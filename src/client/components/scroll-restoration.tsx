import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const positions = new Map<string, number>();

/**
 * React Router's ScrollRestoration needs its data router; this does the same for <BrowserRouter>: a new
 * page (link, redirect) starts at the top, and back/forward returns to where that page was scrolled. A
 * change of the query string alone (filters, search, page number) keeps the position: the list screens
 * scroll to their results themselves.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const currentKey = useRef(location.key);
  const shownPath = useRef(location.pathname);

  useEffect(() => {
    // recorded while scrolling, because by the time the next page has rendered, the browser has
    // already clamped the position to that page's height.
    function record() {
      positions.set(currentKey.current, window.scrollY);
    }
    window.addEventListener('scroll', record, { passive: true });
    return () => window.removeEventListener('scroll', record);
  }, []);

  useLayoutEffect(() => {
    currentKey.current = location.key;
    const saved = navigationType === 'POP' ? positions.get(location.key) : undefined;
    if (saved !== undefined) {
      window.scrollTo(0, saved);
    } else if (location.pathname !== shownPath.current) {
      window.scrollTo(0, 0);
    }
    // on a reload or an opened link neither applies: the browser restores (or starts at) the position.
    shownPath.current = location.pathname;
  }, [location.key, location.pathname, navigationType]);

  return null;
}
