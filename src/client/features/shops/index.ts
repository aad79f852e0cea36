export {
  allShopsQuery,
  type ShopFilters,
  shopBySlugQuery,
  shopDeleteConsequence,
  shopQuery,
  shopsQuery,
  useCreateShop,
  useDeleteShop,
  useUpdateShop,
} from './api';
export { ShopCard, ShopCardSkeleton } from './shop-card';
export { ShopFilter, shopFilter } from './shop-filter';
export { COVER_SIZES, ShopHeader, ShopHeaderSkeleton } from './shop-header';
