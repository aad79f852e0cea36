import { createContext, type ReactNode, use, useState, useSyncExternalStore } from 'react';
import { countHit } from '../../lib/insights';
import { type CompareStorage, type CompareStore, createCompareStore } from './compare-store';

const CompareContext = createContext<CompareStore | null>(null);

/** sessionStorage, or null where the browser refuses it (some privacy modes throw on access). */
function sessionStorageOrNull(): CompareStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Holds the comparison list of this browser tab; wraps the user area's layout. */
export function CompareProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createCompareStore(sessionStorageOrNull()));
  return <CompareContext value={store}>{children}</CompareContext>;
}

export interface CompareList {
  /** The ids of the compared products, in the order they were added. */
  items: readonly string[];
  add(id: string): void;
  remove(id: string): void;
  clear(): void;
}

export function useCompare(): CompareList {
  const store = use(CompareContext);
  if (!store) throw new Error('useCompare must be used inside <CompareProvider>');
  const items = useSyncExternalStore(store.subscribe, store.getSnapshot);
  // An addition is counted for the product (insights), once: adding what is there already changes nothing.
  const add = (id: string) => {
    if (!store.getSnapshot().includes(id)) countHit({ kind: 'compare_add', id });
    store.add(id);
  };
  return { items, add, remove: store.remove, clear: store.clear };
}
