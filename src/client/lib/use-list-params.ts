import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useDebouncedValue } from './use-debounced-value';

export const SEARCH_DEBOUNCE_MS = 300;

export interface ListParams {
  /** The search text as typed (bind the search box to it). */
  text: string;
  setText(text: string): void;
  /** The applied search, trimmed: what the server is asked for (`?q=`). */
  q: string;
  /** 1-based page (`?page=`). */
  page: number;
  setPage(page: number): void;
  /** A filter from the query string, '' when absent. */
  filter(name: string): string;
  /** Sets or clears a filter and goes back to the first page. */
  setFilter(name: string, value: string): void;
}

/** The applied search (`?q=`, trimmed) and the 1-based page (`?page=`) of a list screen's query string. */
export function readListParams(params: URLSearchParams): { q: string; page: number } {
  const q = (params.get('q') ?? '').trim();
  return { q, page: pageFrom(params) };
}

/** `?page=` as a whole number from 1; anything else is page 1. */
export function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * A shopper list's page (`?page=`) and a way to change it: page 1 drops the parameter, other query
 * parameters stay, and `top` scrolls into view (the list is read from its top).
 */
export function usePageParam(top: RefObject<HTMLElement | null>): {
  page: number;
  goToPage(page: number): void;
  /** The page's own address (`?page=2`): the pager's links, which work before any script has run. */
  pageHref(page: number): string;
} {
  const [params] = useSearchParams();
  const pageHref = useCallback(
    (nextPage: number) => {
      const next = new URLSearchParams(params);
      if (nextPage > 1) next.set('page', String(nextPage));
      else next.delete('page');
      const search = next.toString();
      return search ? `?${search}` : '?';
    },
    [params],
  );
  const write = useListWrite();
  const goToPage = useCallback(
    (nextPage: number) => {
      write((next) => {
        if (nextPage > 1) next.set('page', String(nextPage));
        else next.delete('page');
      });
      top.current?.scrollIntoView({ block: 'start' });
    },
    [write, top],
  );
  return { page: pageFrom(params), goToPage, pageHref };
}

/** A location as far as a list's URL goes (react-router's and the browser's both fit). */
export interface ListPlace {
  pathname: string;
  search: string;
  hash?: string;
}

/**
 * Where a change of a list's query string leads: the list's path with `update` applied to the query string
 * the browser has now, or null when there is nothing to do — `update` changed nothing, or the browser is no
 * longer at `listPath` (the list's path when the change was asked for).
 *
 * The second case is real: navigations are transitions, so while the next screen's code loads the list
 * stays on screen and its timers run. A search typed just before a click on a row's Edit link comes due
 * then; written, it would replace the form's URL with the list's and take the person back to the list.
 */
export function listUrl(
  listPath: string,
  now: ListPlace,
  update: (params: URLSearchParams) => void,
): string | null {
  if (now.pathname !== listPath) return null;
  const before = new URLSearchParams(now.search);
  const params = new URLSearchParams(now.search);
  update(params);
  const search = params.toString();
  if (search === before.toString()) return null;
  return `${listPath}${search ? `?${search}` : ''}${now.hash ?? ''}`;
}

/** The typed search's change of a query string: `?q=` trimmed (none when empty), back to page 1. */
export function applySearch(text: string): (params: URLSearchParams) => void {
  const next = text.trim();
  return (params) => {
    if ((params.get('q') ?? '').trim() === next) return;
    if (next) params.set('q', next);
    else params.delete('q');
    params.delete('page');
  };
}

interface WriteOptions {
  replace?: boolean;
  /** The list's path the change belongs to: the rendered location's unless told. */
  listPath?: string;
}

/**
 * Changes the list's query string (see listUrl): only ever the list's own URL, and nothing once the browser
 * has left it. Where the browser is comes from `window.location`: <BrowserRouter> changes it at the click,
 * while the location react-router renders follows only when the next screen is ready.
 */
export function useListWrite(): (update: (params: URLSearchParams) => void, options?: WriteOptions) => void {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return useCallback(
    // called from handlers and effects only: in the browser (the pre-render runs neither)
    (update, { replace = false, listPath = pathname } = {}) => {
      const to = listUrl(listPath, window.location, update);
      if (to !== null) void navigate(to, { replace });
    },
    [pathname, navigate],
  );
}

/**
 * A list screen's search, filters and page, kept in the URL's query string so back, forward and reload
 * keep them. The typed search reaches the URL (and the server) after a pause; typing replaces the history
 * entry, and so do filter changes (a select changes at every arrow key); page changes add one.
 */
export function useListParams(): ListParams {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const write = useListWrite();
  const { q, page } = readListParams(params);

  // the text as typed, with the list's path it was typed at: the search is written there or nowhere.
  const [typed, setTyped] = useState({ text: q, at: pathname });
  const text = typed.text;
  const setText = useCallback((next: string) => setTyped({ text: next, at: pathname }), [pathname]);
  const [seenQ, setSeenQ] = useState(q);
  // back/forward changed ?q= under us: show it in the box (adjusting state during render). A q that
  // came from this box's own text is left alone, so a trailing space being typed is not eaten.
  if (q !== seenQ) {
    setSeenQ(q);
    if (q !== text.trim()) setTyped({ text: q, at: pathname });
  }

  // the timer goes with the list: unmounting clears it (useDebouncedValue), and if it comes due while
  // the next screen loads, the browser has left the list's path and the write does nothing (listUrl).
  const debounced = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const applied = useRef(debounced);
  useEffect(() => {
    // act only when the debounced text itself changes, not when the URL does (back button).
    if (applied.current === debounced) return;
    applied.current = debounced;
    write(applySearch(debounced.text), { replace: true, listPath: debounced.at });
  }, [debounced, write]);

  const setPage = useCallback(
    (nextPage: number) =>
      write((updated) => {
        if (nextPage > 1) updated.set('page', String(nextPage));
        else updated.delete('page');
      }),
    [write],
  );

  // replace: a filter is a select, and arrowing through its options changes it at every step.
  const setFilter = useCallback(
    (name: string, value: string) =>
      write(
        (updated) => {
          if (value) updated.set(name, value);
          else updated.delete(name);
          updated.delete('page');
        },
        { replace: true },
      ),
    [write],
  );

  const filter = useCallback((name: string) => params.get(name) ?? '', [params]);

  return { text, setText, q, page, setPage, filter, setFilter };
}
