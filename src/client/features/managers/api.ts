// Shop managers (docs/decisions/015): the admin's managers panel, the invite link's page, a manager's
// "My shops" area and the approvals queue. Every answer is read fresh: another person may act at any time.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuditPage } from '../../../shared/audit';
import type {
  CreatedManagerInvite,
  InvitePreview,
  ManagedShop,
  ShopManagers,
} from '../../../shared/managers';
import type { ReviewedOffer } from '../../../shared/offer';
import { ApiError, api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { refreshQueries } from '../../lib/refresh-queries';

const id = encodeURIComponent;
const { shopManagers, managedShops, offerReviews, offers, products, shops, stats, audit } = queryKeys;

// ----- the admin's panel on a shop's page -----

export function shopManagersQuery(shopId: string) {
  return queryOptions({
    queryKey: [...shopManagers, shopId] as const,
    queryFn: ({ signal }) => api<ShopManagers>(`/api/shops/${id(shopId)}/managers`, { signal }),
    staleTime: 0,
  });
}

export function useCreateManagerInvite(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ invite: CreatedManagerInvite }>(`/api/shops/${id(shopId)}/manager-invites`, {
        method: 'POST',
      }).then((body) => body.invite),
    onSuccess: () => refreshQueries(queryClient, [shopManagers, audit]),
  });
}

export function useRevokeManagerInvite(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) =>
      api<void>(`/api/shops/${id(shopId)}/manager-invites/${id(inviteId)}`, { method: 'DELETE' }),
    // a 404 (used or revoked meanwhile) also means the list is out of date.
    onSettled: () => refreshQueries(queryClient, [shopManagers, audit]),
  });
}

export function useRemoveManager(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api<void>(`/api/shops/${id(shopId)}/managers/${id(userId)}`, { method: 'DELETE' }),
    onSettled: () => refreshQueries(queryClient, [shopManagers, audit]),
  });
}

/** The full link an admin sends: the code travels in the fragment, never to a server or a Referer. */
export function managerInviteLink(code: string, origin = window.location.origin): string {
  return `${origin}/manage/invite#${code}`;
}

// ----- the invite link's page (outside the query cache: it is shown to visitors too) -----

/** The shop an invitation is for; used, revoked or expired → ApiError 403 INVITE_INVALID. */
export function previewInvite(code: string): Promise<InvitePreview> {
  return api<InvitePreview>('/api/manager-invites/preview', { method: 'POST', body: { code } });
}

/** Becomes a manager of the invite's shop; an admin → 409 ADMIN, already one → 409 ALREADY. */
export function acceptInvite(code: string): Promise<InvitePreview> {
  return api<InvitePreview>('/api/manager-invites/accept', { method: 'POST', body: { code } });
}

// ----- a manager's area -----

export const managedShopsQuery = queryOptions({
  queryKey: [...managedShops, 'list'] as const,
  queryFn: ({ signal }) =>
    api<{ shops: ManagedShop[] }>('/api/manage/shops', { signal }).then((body) => body.shops),
  staleTime: 0,
});

/** Every offer of the shop as its manager sees it: live, waiting, sent back, with any proposal. */
export function managedOffersQuery(shopId: string) {
  return queryOptions({
    queryKey: [...managedShops, shopId, 'offers'] as const,
    queryFn: ({ signal }) =>
      api<{ items: ReviewedOffer[] }>(`/api/manage/shops/${id(shopId)}/offers`, { signal }).then(
        (body) => body.items,
      ),
    staleTime: 0,
  });
}

/**
 * One offer of the shop, from the manager's list: an offer waiting for approval is not among the
 * shoppers' offers (GET /api/offers/:id answers 404 for it).
 */
export function managedOfferQuery(shopId: string, offerId: string) {
  return queryOptions({
    queryKey: [...managedShops, shopId, 'offers', offerId] as const,
    queryFn: async ({ signal }) => {
      const { items } = await api<{ items: ReviewedOffer[] }>(`/api/manage/shops/${id(shopId)}/offers`, {
        signal,
      });
      const offer = items.find((item) => item.id === offerId);
      if (!offer) throw new ApiError('Offer not found', { status: 404, code: 'NOT_FOUND' });
      return offer;
    },
    staleTime: 0,
  });
}

export const MANAGED_ACTIVITY_PAGE_SIZE = 10;

export function managedActivityQuery(shopId: string, page: number) {
  return queryOptions({
    queryKey: [...managedShops, shopId, 'activity', page] as const,
    queryFn: ({ signal }) =>
      api<AuditPage>(
        `/api/manage/shops/${id(shopId)}/activity?page=${page}&pageSize=${MANAGED_ACTIVITY_PAGE_SIZE}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

// ----- the approvals queue -----

export const offerReviewsQuery = queryOptions({
  queryKey: [...offerReviews, 'list'] as const,
  queryFn: ({ signal }) => api<{ items: ReviewedOffer[]; total: number }>('/api/offer-reviews', { signal }),
  staleTime: 0,
});

/** What a decision changes: the queue and its badge, the offers shoppers see, the shop's counts. */
const decided = [offerReviews, offers, products, shops, stats, managedShops, audit];

export function useApproveOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    // `version`: the offer as the admin saw it (refused with 409 when the shop changed it since)
    mutationFn: ({ offerId, version }: { offerId: string; version: string }) =>
      api<ReviewedOffer>(`/api/offer-reviews/${id(offerId)}/approve`, {
        method: 'POST',
        body: { version },
      }),
    // a 409 (decided meanwhile by another admin, or changed by the shop) also means the queue is out
    // of date: it is read again, and the card shows the latest terms.
    onSettled: () => refreshQueries(queryClient, decided),
  });
}

export function useSendBackOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ offerId, comment, version }: { offerId: string; comment: string; version: string }) =>
      api<ReviewedOffer>(`/api/offer-reviews/${id(offerId)}/send-back`, {
        method: 'POST',
        body: { comment, version },
      }),
    onSettled: () => refreshQueries(queryClient, decided),
  });
}
