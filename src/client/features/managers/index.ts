export {
  acceptInvite,
  MANAGED_ACTIVITY_PAGE_SIZE,
  managedActivityQuery,
  managedOfferQuery,
  managedOffersQuery,
  managedShopsQuery,
  managerInviteLink,
  offerReviewsQuery,
  previewInvite,
  shopManagersQuery,
  useApproveOffer,
  useSendBackOffer,
} from './api';
export { ManagersPanel } from './managers-panel';
export { OfferReviewStatus, OfferTerms, ProposedChange, reviewStanding } from './offer-review';
export { offersAndEvents, reviewCounts } from './review-counts';
export { sentForApproval } from './sent-for-approval';
