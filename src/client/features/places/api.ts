// Categories and floors ("places" of a shop in the directory): reads for both areas, writes for admins.
import { queryOptions } from '@tanstack/react-query';
import type { StoreType } from '../../../shared/mall-profile';
import type { Category, Floor, FloorInput, Place } from '../../../shared/place';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { recordWrites } from '../../lib/record-writes';

export type PlaceKind = 'categories' | 'floors';

function placesQuery<T extends Place>(kind: PlaceKind) {
  return queryOptions({
    queryKey: queryKeys[kind],
    queryFn: ({ signal }) => api<{ items: T[] }>(`/api/${kind}`, { signal }).then((body) => body.items),
  });
}

/** With each category's store type for search engines (docs/decisions/034). */
export const categoriesQuery = placesQuery<Category>('categories');
/** In level order (Lower Ground, Ground, First…), as the server lists them: every floor select and filter. */
export const floorsQuery = placesQuery<Floor>('floors');

function placeWrites(kind: PlaceKind) {
  const root = queryKeys[kind];
  // A floor's name and level show on the Floors page and beside its amenities.
  const floorViews = kind === 'floors' ? [queryKeys.amenities, queryKeys.floorGuide] : [];
  // A floor's level, a category's store type: each kind's own field beside the name.
  return recordWrites<Place, FloorInput & { schemaType?: StoreType }>({
    path: `/api/${kind}`,
    root,
    refresh: {
      create: [root, queryKeys.stats, ...floorViews],
      // Every shop shows the new name at once.
      update: [root, queryKeys.shops, ...floorViews],
      delete: [root, queryKeys.stats, ...floorViews],
    },
  });
}

const writes = { categories: placeWrites('categories'), floors: placeWrites('floors') };

// `kind` is fixed for a component's life (one list per kind), so each call picks the same hook.
export const useCreatePlace = (kind: PlaceKind) => writes[kind].useCreate();
export const useUpdatePlace = (kind: PlaceKind) => writes[kind].useUpdate();
export const useDeletePlace = (kind: PlaceKind) => writes[kind].useDelete();
