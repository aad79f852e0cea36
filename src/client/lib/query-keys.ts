import type { QueryKey } from '@tanstack/react-query';

/**
 * The root key of every cached read, in one place: a write in one feature refreshes another's reads
 * (deleting a shop refreshes the products and offers lists) without reaching into that feature.
 * Invalidating a root refreshes every list and detail under it.
 */
export const queryKeys = {
  categories: ['categories'],
  floors: ['floors'],
  shops: ['shops'],
  products: ['products'],
  offers: ['offers'],
  stats: ['stats'],
  invites: ['admin-invites'],
  settings: ['settings'],
  audit: ['audit'],
  search: ['search'],
} as const satisfies Record<string, QueryKey>;
