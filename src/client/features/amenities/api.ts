// A floor's amenities and the shoppers' floor guide: reads for both areas, writes for admins.
import { queryOptions } from '@tanstack/react-query';
import type { Amenity, AmenityInput, FloorGuide } from '../../../shared/amenity';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { recordWrites } from '../../lib/record-writes';

/** Every amenity of the mall (a short list), by floor level, kind and location. */
export const amenitiesQuery = queryOptions({
  queryKey: queryKeys.amenities,
  queryFn: ({ signal }) => api<{ items: Amenity[] }>('/api/amenities', { signal }).then((body) => body.items),
});

/** The Floors page in one read: floors by level, their shops by unit, their amenities. */
export const floorGuideQuery = queryOptions({
  queryKey: queryKeys.floorGuide,
  queryFn: ({ signal }) => api<FloorGuide>('/api/floor-guide', { signal }).then((body) => body.floors),
});

/**
 * One floor's part of the guide. With a shop (a shop's page, an event at a shop): its amenities and, of
 * the floor's shops, that one only — the others would be dimmed pins, on a large mall's floor most of the
 * page's weight (docs/decisions/037).
 */
export const floorGuideOfQuery = (floorId: string, shopId?: string) =>
  queryOptions({
    queryKey: shopId ? [...queryKeys.floorGuide, floorId, shopId] : [...queryKeys.floorGuide, floorId],
    queryFn: ({ signal }) =>
      api<FloorGuide>(
        `/api/floor-guide?floor=${encodeURIComponent(floorId)}${shopId ? `&shop=${encodeURIComponent(shopId)}` : ''}`,
        { signal },
      ).then((body) => body.floors),
  });

const { amenities, floorGuide } = queryKeys;
const writes = recordWrites<Amenity, Partial<AmenityInput>>({
  path: '/api/amenities',
  root: amenities,
  refresh: {
    create: [amenities, floorGuide],
    update: [amenities, floorGuide],
    delete: [amenities, floorGuide],
  },
});
export const useCreateAmenity = writes.useCreate;
export const useUpdateAmenity = writes.useUpdate;
export const useDeleteAmenity = writes.useDelete;
