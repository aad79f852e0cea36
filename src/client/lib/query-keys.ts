import type { QueryKey } from '@tanstack/react-query';

/**
 * The root key of every cached read, in one place: a write in one feature refreshes another's reads
 * (deleting a shop refreshes the products and offers lists) without reaching into that feature.
 * Invalidating a root refreshes every list and detail under it.
 */
export const queryKeys = {
  categories: ['categories'],
  floors: ['floors'],
  amenities: ['amenities'],
  floorGuide: ['floor-guide'],
  shops: ['shops'],
  products: ['products'],
  offers: ['offers'],
  /** The mall's and the shops' events (issue 35). */
  events: ['events'],
  stats: ['stats'],
  invites: ['admin-invites'],
  settings: ['settings'],
  audit: ['audit'],
  /** A shop's managers and open manager invites (admin). */
  shopManagers: ['shop-managers'],
  /** The signed-in manager's shops, their offers under review and their history. */
  managedShops: ['managed-shops'],
  /** The approvals queue (admin). */
  offerReviews: ['offer-reviews'],
  /** The approvals queue's events, and the mall office's list of every event (admin). */
  eventReviews: ['event-reviews'],
  mallHours: ['mall-hours'],
  search: ['search'],
  /** Bulk import runs (admin). */
  imports: ['imports'],
  /** What shoppers looked at and searched for (admin; a shop's own for its managers). */
  insights: ['insights'],
  /** Search synonyms (admin). */
  synonyms: ['synonyms'],
} as const satisfies Record<string, QueryKey>;
