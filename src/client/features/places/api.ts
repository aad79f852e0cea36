// Categories and floors ("places" of a shop in the directory): reads for both areas, writes for admins.
import { queryOptions } from '@tanstack/react-query';
import type { Place, PlaceInput } from '../../../shared/place';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { recordWrites } from '../../lib/record-writes';

export type PlaceKind = 'categories' | 'floors';

function placesQuery(kind: PlaceKind) {
  return queryOptions({
    queryKey: queryKeys[kind],
    queryFn: ({ signal }) => api<{ items: Place[] }>(`/api/${kind}`, { signal }).then((body) => body.items),
  });
}

export const categoriesQuery = placesQuery('categories');
export const floorsQuery = placesQuery('floors');

function placeWrites(kind: PlaceKind) {
  const root = queryKeys[kind];
  return recordWrites<Place, PlaceInput>({
    path: `/api/${kind}`,
    root,
    refresh: {
      create: [root, queryKeys.stats],
      // Every shop shows the new name at once.
      update: [root, queryKeys.shops],
      delete: [root, queryKeys.stats],
    },
  });
}

const writes = { categories: placeWrites('categories'), floors: placeWrites('floors') };

// `kind` is fixed for a component's life (one list per kind), so each call picks the same hook.
export const useCreatePlace = (kind: PlaceKind) => writes[kind].useCreate();
export const useUpdatePlace = (kind: PlaceKind) => writes[kind].useUpdate();
export const useDeletePlace = (kind: PlaceKind) => writes[kind].useDelete();
