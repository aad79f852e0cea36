// The mall's shops: reads for both areas, writes for admins.
import { queryOptions } from '@tanstack/react-query';
import type { Shop, ShopDetail, ShopInput, ShopListingInput } from '../../../shared/shop';
import { fetchAll, pageQuery, recordQuery } from '../../lib/list-query';
import { queryKeys } from '../../lib/query-keys';
import { recordWrites } from '../../lib/record-writes';

export interface ShopFilters {
  q?: string;
  categoryId?: string;
  floorId?: string;
  /** Only shops open at this UTC minute (the "Open now" filter: the mall clock's now, openAtParam). */
  openAt?: string;
  page?: number;
  pageSize?: number;
}

export const shopsQuery = pageQuery<Shop, ShopFilters>(queryKeys.shops, '/api/shops');
export const shopQuery = recordQuery<ShopDetail>(queryKeys.shops, '/api/shops');
/**
 * A shop by its public address (`/shops/pixel-point`): its slug, an old slug (the answer names the new
 * one) or its id (docs/decisions/034).
 */
export const shopBySlugQuery = recordQuery<ShopDetail>([...queryKeys.shops, 'slug'], '/api/shops/by-slug');

/** Every shop, by name: the shop selects of the admin forms and filters, however big the mall. */
export const allShopsQuery = queryOptions({
  queryKey: [...queryKeys.shops, 'all'] as const,
  queryFn: ({ signal }) => fetchAll<Shop>('/api/shops', {}, signal),
});

const { categories, floors, shops, products, offers, stats, managedShops } = queryKeys;
const shopWrites = {
  path: '/api/shops',
  root: shops,
  refresh: {
    // Categories and floors show how many shops use them.
    create: [shops, categories, floors, stats],
    // Products and offers show their shop's name.
    update: [shops, categories, floors, products, offers, managedShops],
    // Its products and offers go with it.
    delete: [shops, categories, floors, products, offers, stats, managedShops],
  },
};
const writes = recordWrites<ShopDetail, ShopInput>(shopWrites);
export const useCreateShop = writes.useCreate;
export const useUpdateShop = writes.useUpdate;
export const useDeleteShop = writes.useDelete;
/** A shop manager's change to their shop's page: only the fields they may change are sent. */
export const useUpdateShopListing = recordWrites<ShopDetail, ShopListingInput>(shopWrites).useUpdate;

/** 'Its 12 products and 2 offers will be deleted too.' — nothing when the shop has neither. */
export function shopDeleteConsequence({ productCount, offerCount }: ShopDetail): string {
  const parts: string[] = [];
  if (productCount > 0) parts.push(plural(productCount, 'product', 'products'));
  if (offerCount > 0) parts.push(plural(offerCount, 'offer', 'offers'));
  if (parts.length === 0) return '';
  return `Its ${parts.join(' and ')} will be deleted too.`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
