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
