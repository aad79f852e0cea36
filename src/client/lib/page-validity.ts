// How long a page rendered on the server stays true (docs/decisions/034): a component whose output
// depends on the clock (a shop's "Open now · closes 21:00") says until when it holds, and the server
// serves its cached copy of the page no longer than the earliest of these. No provider in the browser.
import { createContext, useContext } from 'react';

export interface PageValidity {
  /** The page holds at most until this instant (epoch ms). */
  until(instant: number): void;
}

const ValidityContext = createContext<PageValidity | null>(null);
export const PageValidityProvider = ValidityContext.Provider;

export function usePageValidity(): PageValidity | null {
  return useContext(ValidityContext);
}
