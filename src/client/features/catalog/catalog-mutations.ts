// Writes to the mall's directory (admin only). Each hook refreshes every cached read the write can
// change: the entity's own lists and details, the shop details whose counts move, the dashboard figures.
import { type QueryClient, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Offer, OfferInput } from '../../../shared/offer';
import type { Place, PlaceInput } from '../../../shared/place';
import type { Product, ProductInput } from '../../../shared/product';
import type { ShopDetail, ShopInput } from '../../../shared/shop';
import { api } from '../../lib/api';
import { refreshQueries } from '../../lib/refresh-queries';
import { statsQuery } from '../stats/stats-api';
import { catalogKeys } from './catalog-api';

const statsKey = statsQuery.queryKey;

const refresh = refreshQueries;

/** A deleted record's detail must not be fetched again by a screen still showing it (it would 404). */
function forget(queryClient: QueryClient, base: QueryKey, id: string): void {
  queryClient.removeQueries({ queryKey: [...base, 'detail', id], exact: true });
}

const path = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

// ----- shops -----

export function useCreateShop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ShopInput) => api<ShopDetail>('/api/shops', { method: 'POST', body: input }),
    // Categories and floors show how many shops use them.
    onSuccess: () =>
      refresh(queryClient, [catalogKeys.shops(), catalogKeys.categories(), catalogKeys.floors(), statsKey]),
  });
}

export function useUpdateShop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ShopInput }) =>
      api<ShopDetail>(path('/api/shops', id), { method: 'PATCH', body: input }),
    // Products and offers show their shop's name.
    onSuccess: () =>
      refresh(queryClient, [
        catalogKeys.shops(),
        catalogKeys.categories(),
        catalogKeys.floors(),
        catalogKeys.products(),
        catalogKeys.offers(),
      ]),
  });
}

export function useDeleteShop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(path('/api/shops', id), { method: 'DELETE' }),
    // Its products and offers go with it.
    onSuccess: (_data, id) => {
      forget(queryClient, catalogKeys.shops(), id);
      refresh(queryClient, [
        catalogKeys.shops(),
        catalogKeys.categories(),
        catalogKeys.floors(),
        catalogKeys.products(),
        catalogKeys.offers(),
        statsKey,
      ]);
    },
  });
}

// ----- products -----

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProductInput) => api<Product>('/api/products', { method: 'POST', body: input }),
    onSuccess: () => refresh(queryClient, [catalogKeys.products(), catalogKeys.shops(), statsKey]),
  });
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ProductInput }) =>
      api<Product>(path('/api/products', id), { method: 'PATCH', body: input }),
    onSuccess: () => refresh(queryClient, [catalogKeys.products(), catalogKeys.shops()]),
  });
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(path('/api/products', id), { method: 'DELETE' }),
    onSuccess: (_data, id) => {
      forget(queryClient, catalogKeys.products(), id);
      refresh(queryClient, [catalogKeys.products(), catalogKeys.shops(), statsKey]);
    },
  });
}

// ----- offers -----

export function useCreateOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OfferInput) => api<Offer>('/api/offers', { method: 'POST', body: input }),
    onSuccess: () => refresh(queryClient, [catalogKeys.offers(), catalogKeys.shops(), statsKey]),
  });
}

export function useUpdateOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: OfferInput }) =>
      api<Offer>(path('/api/offers', id), { method: 'PATCH', body: input }),
    // Products show their offer's title, discount and dates; the dashboard counts active offers.
    onSuccess: () =>
      refresh(queryClient, [catalogKeys.offers(), catalogKeys.products(), catalogKeys.shops(), statsKey]),
  });
}

export function useDeleteOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(path('/api/offers', id), { method: 'DELETE' }),
    // Products that had it lose it.
    onSuccess: (_data, id) => {
      forget(queryClient, catalogKeys.offers(), id);
      refresh(queryClient, [catalogKeys.offers(), catalogKeys.products(), catalogKeys.shops(), statsKey]);
    },
  });
}

// ----- categories and floors -----

export type PlaceKind = 'categories' | 'floors';

const placeKey = (kind: PlaceKind) =>
  kind === 'categories' ? catalogKeys.categories() : catalogKeys.floors();

export function useCreatePlace(kind: PlaceKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PlaceInput) => api<Place>(`/api/${kind}`, { method: 'POST', body: input }),
    onSuccess: () => refresh(queryClient, [placeKey(kind), statsKey]),
  });
}

export function useUpdatePlace(kind: PlaceKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: PlaceInput }) =>
      api<Place>(path(`/api/${kind}`, id), { method: 'PATCH', body: input }),
    // Every shop shows the new name at once.
    onSuccess: () => refresh(queryClient, [placeKey(kind), catalogKeys.shops()]),
  });
}

export function useDeletePlace(kind: PlaceKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(path(`/api/${kind}`, id), { method: 'DELETE' }),
    onSuccess: () => refresh(queryClient, [placeKey(kind), statsKey]),
  });
}
