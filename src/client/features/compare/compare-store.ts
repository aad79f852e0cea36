// The shopper's comparison list: the ids of the products, kept for the browser tab's session
// (sessionStorage) and never sent to the server. The products themselves are read from the server
// each time the list is shown (compare-products.ts), so a changed price, an ended offer or a deleted
// product shows as it is now. Pure logic here; the React provider is in compare-context.tsx.
import type { Product } from '../../../shared/product';

export const COMPARE_STORAGE_KEY = 'super-mall:compare';

/** The part of the Storage interface the store uses (sessionStorage, or a fake in tests). */
export type CompareStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** What the list keeps of a product: its id. (The shop page adds `toCompareItem(product)`.) */
export function toCompareItem(product: Pick<Product, 'id'>): string {
  return product.id;
}

/** Adds `id` at the end; an id already in the list leaves the list as it is (the same array). */
export function addItem(ids: readonly string[], id: string): readonly string[] {
  return ids.includes(id) ? ids : [...ids, id];
}

/** Takes `id` out; the same array when it was not there. */
export function removeItem(ids: readonly string[], id: string): readonly string[] {
  return ids.includes(id) ? ids.filter((existing) => existing !== id) : ids;
}

export function hasItem(ids: readonly string[], id: string): boolean {
  return ids.includes(id);
}

/** Longer than any id the server makes (UUIDs): an edited entry is dropped, not sent in a URL. */
const MAX_ID_LENGTH = 64;

/**
 * One stored entry's id: an id string, or — lists written before the list kept ids only — a product
 * snapshot object, of which only the id is kept. Null when it is neither.
 */
function readId(value: unknown): string | null {
  const id =
    typeof value === 'object' && value !== null && !Array.isArray(value) && 'id' in value ? value.id : value;
  return typeof id === 'string' && id !== '' && id.length <= MAX_ID_LENGTH ? id : null;
}

/**
 * The list from its stored text. Anything unreadable (no value, broken JSON, an edited entry) is
 * dropped rather than failing the page; duplicates keep their first occurrence.
 */
export function parseCompare(text: string | null): readonly string[] {
  if (!text) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  let ids: readonly string[] = [];
  for (const value of parsed) {
    const id = readId(value);
    if (id !== null) ids = addItem(ids, id);
  }
  return ids;
}

export function serializeCompare(ids: readonly string[]): string {
  return JSON.stringify(ids);
}

export interface CompareStore {
  subscribe(listener: () => void): () => void;
  /** The same array until the list changes (what useSyncExternalStore needs). */
  getSnapshot(): readonly string[];
  add(id: string): void;
  remove(id: string): void;
  clear(): void;
}

function write(storage: CompareStorage | null, ids: readonly string[]) {
  try {
    storage?.setItem(COMPARE_STORAGE_KEY, serializeCompare(ids));
  } catch {
    // the list is a convenience; an unwritable storage must not break the page.
  }
}

/**
 * A store over `storage`. Writing can fail (storage full or blocked); the list then still works for
 * this page and only the reload loses it.
 */
export function createCompareStore(storage: CompareStorage | null): CompareStore {
  let ids: readonly string[] = [];
  try {
    const stored = storage?.getItem(COMPARE_STORAGE_KEY) ?? null;
    ids = parseCompare(stored);
    // A list in the old format (snapshots with names and prices) is rewritten as ids at once, so no
    // copy of a product's old price stays behind in the tab.
    if (stored !== null && stored !== serializeCompare(ids)) write(storage, ids);
  } catch {
    ids = [];
  }
  const listeners = new Set<() => void>();

  function set(next: readonly string[]) {
    if (next === ids) return;
    ids = next;
    write(storage, ids);
    for (const listener of listeners) listener();
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => ids,
    add: (id) => set(addItem(ids, id)),
    remove: (id) => set(removeItem(ids, id)),
    clear: () => set(ids.length === 0 ? ids : []),
  };
}
