import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
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
} {
  const [params, setParams] = useSearchParams();
  const goToPage = useCallback(
    (nextPage: number) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (nextPage > 1) next.set('page', String(nextPage));
        else next.delete('page');
        return next;
      });
      top.current?.scrollIntoView({ block: 'start' });
    },
    [setParams, top],
  );
  return { page: pageFrom(params), goToPage };
}

/**
 * A list screen's search, filters and page, kept in the URL's query string so back, forward and reload
 * keep them. The typed search reaches the URL (and the server) after a pause; typing replaces the history
 * entry, and so do filter changes (a select changes at every arrow key); page changes add one.
 */
export function useListParams(): ListParams {
  const [params, setParams] = useSearchParams();
  const { q, page } = readListParams(params);

  const [text, setText] = useState(q);
  const [seenQ, setSeenQ] = useState(q);
  // back/forward changed ?q= under us: show it in the box (adjusting state during render). A q that
  // came from this box's own text is left alone, so a trailing space being typed is not eaten.
  if (q !== seenQ) {
    setSeenQ(q);
    if (q !== text.trim()) setText(q);
  }

  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const applied = useRef(debounced);
  useEffect(() => {
    // act only when the debounced text itself changes, not when the URL does (back button).
    if (applied.current === debounced) return;
    applied.current = debounced;
    const next = debounced.trim();
    setParams(
      (prev) => {
        if ((prev.get('q') ?? '').trim() === next) return prev;
        const updated = new URLSearchParams(prev);
        if (next) updated.set('q', next);
        else updated.delete('q');
        updated.delete('page');
        return updated;
      },
      { replace: true },
    );
  }, [debounced, setParams]);

  const setPage = useCallback(
    (nextPage: number) =>
      setParams((prev) => {
        const updated = new URLSearchParams(prev);
        if (nextPage > 1) updated.set('page', String(nextPage));
        else updated.delete('page');
        return updated;
      }),
    [setParams],
  );

  // replace: a filter is a select, and arrowing through its options changes it at every step.
  const setFilter = useCallback(
    (name: string, value: string) =>
      setParams(
        (prev) => {
          const updated = new URLSearchParams(prev);
          if (value) updated.set(name, value);
          else updated.delete(name);
          updated.delete('page');
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );

  const filter = useCallback((name: string) => params.get(name) ?? '', [params]);

  return { text, setText, q, page, setPage, filter, setFilter };
}
