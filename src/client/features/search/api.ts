// The mall-wide search (GET /api/search, docs/decisions/016).
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SearchKind, SearchResults } from '../../../shared/search';
import { api } from '../../lib/api';
import { PUBLIC_AREA, USER_AREA } from '../../lib/directory-area';
import { toSearch } from '../../lib/list-query';
import { queryKeys } from '../../lib/query-keys';

export interface SearchParams {
  q: string;
  kind?: SearchKind;
  page?: number;
}

/**
 * One search's answer. Kept only briefly (staleTime 0): any directory write may change it, and the
 * writes refresh their own entities' keys, not every search typed since.
 */
export const searchQuery = (params: SearchParams) =>
  queryOptions({
    queryKey: [...queryKeys.search, params] as const,
    queryFn: ({ signal }) => api<SearchResults>(`/api/search${toSearch({ ...params })}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** Where a result opens: the public shop page, the shopper's, or the admin's edit screen. */
export type SearchArea = 'public' | 'user' | 'admin';

export interface ResultLinks {
  shop(item: { id: string; slug: string }): string;
  product(item: { id: string; shopId: string }): string;
  offer(item: { id: string; shopId: string }): string;
  page(q: string, kind?: SearchKind): string;
  /** Whether opening a result counts as a view of it (insights): a shopper's, not the office's. */
  counted: boolean;
}

export function resultLinks(area: SearchArea): ResultLinks {
  const page = (q: string, kind?: SearchKind) =>
    `${area === 'public' ? '' : `/${area}`}/search${toSearch({ q, kind })}`;
  if (area === 'admin') {
    return {
      shop: ({ id }) => `/admin/shops/${encodeURIComponent(id)}`,
      product: ({ id }) => `/admin/products/${encodeURIComponent(id)}`,
      offer: ({ id }) => `/admin/offers/${encodeURIComponent(id)}`,
      page,
      counted: false,
    };
  }
  // A shopper's product or offer opens its shop's page, which lists both (public: its id answers with a
  // redirect to the shop's slug).
  const directory = area === 'public' ? PUBLIC_AREA : USER_AREA;
  return {
    shop: (shop) => directory.shop(shop),
    product: ({ shopId }) => directory.shopById(shopId),
    offer: ({ shopId }) => directory.shopById(shopId),
    page,
    counted: true,
  };
}

/** "3 shops, 12 products and 1 offer" — "1000+ products" when counted to the cap. */
export function countsText(results: SearchResults): string {
  const parts: string[] = [];
  const add = (group: { total: number; totalCapped: boolean } | undefined, one: string, many: string) => {
    if (!group) return;
    const n = group.totalCapped ? `${group.total}+` : String(group.total);
    parts.push(`${n} ${group.total === 1 && !group.totalCapped ? one : many}`);
  };
  add(results.shops, 'shop', 'shops');
  add(results.products, 'product', 'products');
  add(results.offers, 'offer', 'offers');
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export const totalFound = (results: SearchResults): number =>
  (results.shops?.total ?? 0) + (results.products?.total ?? 0) + (results.offers?.total ?? 0);
