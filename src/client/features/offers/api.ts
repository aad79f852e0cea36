// The shops' offers: reads for both areas, writes for admins.
import { queryOptions } from '@tanstack/react-query';
import type { Offer, OfferInput } from '../../../shared/offer';
import { fetchAll, pageQuery, recordQuery } from '../../lib/list-query';
import { queryKeys } from '../../lib/query-keys';
import { recordWrites } from '../../lib/record-writes';

export interface OfferFilters {
  q?: string;
  shopId?: string;
  active?: boolean;
  page?: number;
  pageSize?: number;
}

export const offersQuery = pageQuery<Offer, OfferFilters>(queryKeys.offers, '/api/offers');
export const offerQuery = recordQuery<Offer>(queryKeys.offers, '/api/offers');

/** Every offer of one shop (the product form's 'Apply Offer' choices). */
export function shopOffersQuery(shopId: string) {
  return queryOptions({
    queryKey: [...queryKeys.offers, 'all', { shopId }] as const,
    queryFn: ({ signal }) => fetchAll<Offer>('/api/offers', { shopId }, signal),
  });
}

const { shops, products, offers, stats, managedShops, offerReviews } = queryKeys;
const writes = recordWrites<Offer, OfferInput>({
  path: '/api/offers',
  root: offers,
  refresh: {
    // A manager's offer waits in the approvals queue; their My shops page counts it.
    create: [offers, shops, stats, managedShops, offerReviews],
    // Products show their offer's title, discount and dates; the dashboard counts active offers.
    update: [offers, products, shops, stats, managedShops, offerReviews],
    // Products that had it lose it.
    delete: [offers, products, shops, stats, managedShops, offerReviews],
  },
});
export const useCreateOffer = writes.useCreate;
export const useUpdateOffer = writes.useUpdate;
export const useDeleteOffer = writes.useDelete;
