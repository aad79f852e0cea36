// The shopper's comparison list: product snapshots kept for the browser tab's session
// (sessionStorage), never sent to the server. Pure logic here; the React provider is in
// compare-context.tsx.
import { comparePrices, isPriceString, lowestPrice } from '../../../shared/money';
import type { Product } from '../../../shared/product';

export const COMPARE_STORAGE_KEY = 'super-mall:compare';

/** What the comparison table needs of a product, copied when it is added. */
export interface CompareItem {
  id: string;
  name: string;
  description: string;
  /** Exact, two decimals: "1299.00". */
  price: string;
  /** The discounted price while the product's offer was active when it was added; null otherwise. */
  offerPrice: string | null;
  shopId: string;
  shopName: string;
  offer: { id: string; title: string; discount: number; endDate: string; active: boolean } | null;
}

/** The part of the Storage interface the store uses (sessionStorage, or a fake in tests). */
export type CompareStorage = Pick<Storage, 'getItem' | 'setItem'>;

export function toCompareItem(product: Product): CompareItem {
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    price: product.price,
    offerPrice: product.offerPrice,
    shopId: product.shopId,
    shopName: product.shopName,
    offer: product.offer
      ? {
          id: product.offer.id,
          title: product.offer.title,
          discount: product.offer.discount,
          endDate: product.offer.endDate,
          active: product.offer.active,
        }
      : null,
  };
}

/** Adds `item` at the end; a product already in the list (same id) leaves the list as it is. */
export function addItem(items: readonly CompareItem[], item: CompareItem): readonly CompareItem[] {
  return items.some((existing) => existing.id === item.id) ? items : [...items, item];
}

/** Takes the product with `id` out; the same list when it was not there. */
export function removeItem(items: readonly CompareItem[], id: string): readonly CompareItem[] {
  return items.some((item) => item.id === id) ? items.filter((item) => item.id !== id) : items;
}

export function hasItem(items: readonly CompareItem[], id: string): boolean {
  return items.some((item) => item.id === id);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOffer(value: unknown): value is NonNullable<CompareItem['offer']> {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.title === 'string' &&
    typeof value.discount === 'number' &&
    typeof value.endDate === 'string' &&
    typeof value.active === 'boolean'
  );
}

/** Reads one stored item, keeping only the known fields; null when it is not a valid snapshot. */
function readItem(value: unknown): CompareItem | null {
  if (!isRecord(value)) return null;
  const { id, name, description, price, offerPrice, shopId, shopName, offer } = value;
  if (
    typeof id !== 'string' ||
    id === '' ||
    typeof name !== 'string' ||
    typeof description !== 'string' ||
    typeof price !== 'string' ||
    !isPriceString(price) ||
    !(offerPrice === null || (typeof offerPrice === 'string' && isPriceString(offerPrice))) ||
    typeof shopId !== 'string' ||
    typeof shopName !== 'string' ||
    !(offer === null || isOffer(offer))
  ) {
    return null;
  }
  return {
    id,
    name,
    description,
    price,
    offerPrice,
    shopId,
    shopName,
    offer: offer ? { ...offer } : null,
  };
}

/**
 * The list from its stored text. Anything unreadable (no value, broken JSON, an edited entry) is
 * dropped rather than failing the page; duplicates keep their first occurrence.
 */
export function parseCompare(text: string | null): readonly CompareItem[] {
  if (!text) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  let items: readonly CompareItem[] = [];
  for (const value of parsed) {
    const item = readItem(value);
    if (item) items = addItem(items, item);
  }
  return items;
}

export function serializeCompare(items: readonly CompareItem[]): string {
  return JSON.stringify(items);
}

/** The price the shopper pays today: the offer price while the offer is active, else the price. */
export function effectivePrice(item: Pick<CompareItem, 'price' | 'offerPrice'>): string {
  return item.offerPrice ?? item.price;
}

/**
 * The ids of the products with the lowest effective price (all of them on a tie). Empty with fewer
 * than two products: there is nothing to compare against.
 */
export function lowestPriceIds(items: readonly CompareItem[]): Set<string> {
  if (items.length < 2) return new Set();
  const lowest = lowestPrice(items.map(effectivePrice));
  if (lowest === null) return new Set();
  return new Set(
    items.filter((item) => comparePrices(effectivePrice(item), lowest) === 0).map((item) => item.id),
  );
}

export interface CompareStore {
  subscribe(listener: () => void): () => void;
  /** The same array until the list changes (what useSyncExternalStore needs). */
  getSnapshot(): readonly CompareItem[];
  add(item: CompareItem): void;
  remove(id: string): void;
  clear(): void;
}

/**
 * A store over `storage`. Writing can fail (storage full or blocked); the list then still works for
 * this page and only the reload loses it.
 */
export function createCompareStore(storage: CompareStorage | null): CompareStore {
  let items: readonly CompareItem[] = [];
  try {
    items = parseCompare(storage?.getItem(COMPARE_STORAGE_KEY) ?? null);
  } catch {
    items = [];
  }
  const listeners = new Set<() => void>();

  function set(next: readonly CompareItem[]) {
    if (next === items) return;
    items = next;
    try {
      storage?.setItem(COMPARE_STORAGE_KEY, serializeCompare(items));
    } catch {
      // the list is a convenience; an unwritable storage must not break the page.
    }
    for (const listener of listeners) listener();
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => items,
    add: (item) => set(addItem(items, item)),
    remove: (id) => set(removeItem(items, id)),
    clear: () => set(items.length === 0 ? items : []),
  };
}
