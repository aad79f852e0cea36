// Query options for the API's paginated lists and single records, the same for every entity.
import { keepPreviousData, type QueryKey, queryOptions } from '@tanstack/react-query';
import type { Page } from '../../shared/text';
import { api } from './api';

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

/** `/api/shops/<id>`, the id encoded. */
export const recordPath = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

/** A page of `path`'s list for the given filters, cached under `[...root, 'list', filters]`. */
export function pageQuery<T, F extends { [K in keyof F]: Query[string] }>(root: QueryKey, path: string) {
  return (filters: F = {} as F) =>
    queryOptions({
      queryKey: [...root, 'list', filters] as QueryKey,
      queryFn: ({ signal }) => api<Page<T>>(`${path}${toSearch({ ...filters })}`, { signal }),
      // Keeps the current page on screen while the next filter or page loads (no flash, no layout shift).
      placeholderData: keepPreviousData,
    });
}

/** One record of `path` by id, cached under `[...root, 'detail', id]`. */
export function recordQuery<T>(root: QueryKey, path: string) {
  return (id: string) =>
    queryOptions({
      queryKey: [...root, 'detail', id] as QueryKey,
      queryFn: ({ signal }) => api<T>(recordPath(path, id), { signal }),
    });
}

/** The API's largest page (PAGE_SIZE_MAX in shared/text.ts, not imported here to keep zod out). */
const ALL_PAGE_SIZE = 100;

/** Every item of a paginated list, fetching pages of 100 in turn until the total is reached. */
export async function fetchAll<T>(path: string, query: Query, signal: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const body = await api<Page<T>>(`${path}${toSearch({ ...query, page, pageSize: ALL_PAGE_SIZE })}`, {
      signal,
    });
    items.push(...body.items);
    if (body.items.length === 0 || items.length >= body.total) return items;
  }
}
