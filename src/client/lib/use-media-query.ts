import { useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches now, kept up to date. For content that must exist once, in one
 * place or another by width (CSS alone would put it in the page twice, read twice).
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
