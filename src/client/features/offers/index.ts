export {
  type OfferFilters,
  offerQuery,
  offersQuery,
  shopOffersQuery,
  useCreateOffer,
  useDeleteOffer,
  useUpdateOffer,
} from './api';
export { NoActiveOffers, OfferCard, OfferCardSkeleton } from './offer-card';
export { OfferStatusBadge } from './offer-status-badge';
