// Read access to the mall's directory, shared by the admin and the user areas: query keys and query
// options per entity. Writes (admin only) live in catalog-mutations.ts.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Offer } from '../../../shared/offer';
import type { Place } from '../../../shared/place';
import type { Product } from '../../../shared/product';
import type { Shop, ShopDetail } from '../../../shared/shop';
import type { Page } from '../../../shared/text';
import { api } from '../../lib/api';

type Query = Record<string, string | number | boolean | undefined>;

/** `?a=1&b=x`, leaving out empty values; keys in a stable order so equal filters share a cache entry. */
export function toSearch(query: Query): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(query).sort()) {
    const value = query[key];
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export interface ShopFilters {
  q?: string;
  categoryId?: string;
  floorId?: string;
  page?: number;
  pageSize?: number;
}
export interface ProductFilters {
  q?: string;
  shopId?: string;
  category?: string;
  onOffer?: boolean;
  page?: number;
  pageSize?: number;
}
export interface OfferFilters {
  q?: string;
  shopId?: string;
  active?: boolean;
  page?: number;
  pageSize?: number;
}

/** Query keys: invalidating `catalogKeys.shops()` refreshes every shop list and detail. */
export const catalogKeys = {
  categories: () => ['categories'] as const,
  floors: () => ['floors'] as const,
  shops: () => ['shops'] as const,
  products: () => ['products'] as const,
  offers: () => ['offers'] as const,
};

export const categoriesQuery = queryOptions({
  queryKey: catalogKeys.categories(),
  queryFn: ({ signal }) => api<{ items: Place[] }>('/api/categories', { signal }).then((body) => body.items),
});

export const floorsQuery = queryOptions({
  queryKey: catalogKeys.floors(),
  queryFn: ({ signal }) => api<{ items: Place[] }>('/api/floors', { signal }).then((body) => body.items),
});

export function shopsQuery(filters: ShopFilters = {}) {
  return queryOptions({
    queryKey: [...catalogKeys.shops(), 'list', filters] as const,
    queryFn: ({ signal }) => api<Page<Shop>>(`/api/shops${toSearch({ ...filters })}`, { signal }),
    // Keeps the current page on screen while the next filter or page loads (no flash, no layout shift).
    placeholderData: keepPreviousData,
  });
}

export function shopQuery(id: string) {
  return queryOptions({
    queryKey: [...catalogKeys.shops(), 'detail', id] as const,
    queryFn: ({ signal }) => api<ShopDetail>(`/api/shops/${encodeURIComponent(id)}`, { signal }),
  });
}

export function productsQuery(filters: ProductFilters = {}) {
  return queryOptions({
    queryKey: [...catalogKeys.products(), 'list', filters] as const,
    queryFn: ({ signal }) => api<Page<Product>>(`/api/products${toSearch({ ...filters })}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function productQuery(id: string) {
  return queryOptions({
    queryKey: [...catalogKeys.products(), 'detail', id] as const,
    queryFn: ({ signal }) => api<Product>(`/api/products/${encodeURIComponent(id)}`, { signal }),
  });
}

export function offersQuery(filters: OfferFilters = {}) {
  return queryOptions({
    queryKey: [...catalogKeys.offers(), 'list', filters] as const,
    queryFn: ({ signal }) => api<Page<Offer>>(`/api/offers${toSearch({ ...filters })}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function offerQuery(id: string) {
  return queryOptions({
    queryKey: [...catalogKeys.offers(), 'detail', id] as const,
    queryFn: ({ signal }) => api<Offer>(`/api/offers/${encodeURIComponent(id)}`, { signal }),
  });
}

/** The API's largest page (PAGE_SIZE_MAX in shared/text.ts, not imported here to keep zod out). */
const ALL_PAGE_SIZE = 100;

/** Every item of a paginated list, fetching pages of 100 in turn until the total is reached. */
async function fetchAll<T>(path: string, query: Query, signal: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const body = await api<Page<T>>(`${path}${toSearch({ ...query, page, pageSize: ALL_PAGE_SIZE })}`, {
      signal,
    });
    items.push(...body.items);
    if (body.items.length === 0 || items.length >= body.total) return items;
  }
}

/** Every shop, by name: the shop selects of the admin forms and filters, however big the mall. */
export const allShopsQuery = queryOptions({
  queryKey: [...catalogKeys.shops(), 'all'] as const,
  queryFn: ({ signal }) => fetchAll<Shop>('/api/shops', {}, signal),
});

/** Every offer of one shop (the product form's 'Apply Offer' choices). */
export function shopOffersQuery(shopId: string) {
  return queryOptions({
    queryKey: [...catalogKeys.offers(), 'all', { shopId }] as const,
    queryFn: ({ signal }) => fetchAll<Offer>('/api/offers', { shopId }, signal),
  });
}
