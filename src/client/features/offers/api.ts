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

const { shops, products, offers, stats } = queryKeys;
const writes = recordWrites<Offer, OfferInput>({
  path: '/api/offers',
  root: offers,
  refresh: {
    create: [offers, shops, stats],
    // Products show their offer's title, discount and dates; the dashboard counts active offers.
    update: [offers, products, shops, stats],
    // Products that had it lose it.
    delete: [offers, products, shops, stats],
  },
});
export const useCreateOffer = writes.useCreate;
export const useUpdateOffer = writes.useUpdate;
export const useDeleteOffer = writes.useDelete;
