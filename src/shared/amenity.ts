import './zod-config';
import { z } from 'zod';
import { Pin } from './floor-plan';
import { AMENITY_KINDS } from './floors';
import { Floor } from './place';
import { Id, optionalLine } from './text';

export { AMENITY_KINDS, AMENITY_LABELS, type AmenityKind } from './floors';

export const AMENITY_LOCATION_MAX = 120;

export const AmenityInput = z.strictObject({
  floorId: Id('Floor is required'),
  kind: z.enum(AMENITY_KINDS, { error: 'Choose a kind of amenity' }),
  location: optionalLine(
    AMENITY_LOCATION_MAX,
    `Location must be at most ${AMENITY_LOCATION_MAX} characters`,
    'Location must be one line',
  ),
});
export type AmenityInput = z.input<typeof AmenityInput>;
export const AmenityPatch = AmenityInput.partial();
export type AmenityPatch = z.input<typeof AmenityPatch>;

export const Amenity = z.object({
  id: z.string(),
  floorId: z.string(),
  floor: z.string(),
  kind: z.enum(AMENITY_KINDS),
  location: z.string(),
  createdAt: z.string(),
});
export type Amenity = z.infer<typeof Amenity>;

/** The Floors page: every floor in level order, its shops by unit and its amenities. */
export const FloorGuideShop = z.object({
  id: z.string(),
  /** Its public address (docs/decisions/034). */
  slug: z.string(),
  name: z.string(),
  category: z.string(),
  location: z.string(),
  /** Its pin on the floor's plan (docs/decisions/021); null when not placed. */
  pin: Pin.nullable(),
});
export type FloorGuideShop = z.infer<typeof FloorGuideShop>;
export const FloorGuideAmenity = Amenity.pick({ id: true, kind: true, location: true }).extend({
  pin: Pin.nullable(),
});
export type FloorGuideAmenity = z.infer<typeof FloorGuideAmenity>;
export const FloorGuideEntry = Floor.pick({ id: true, name: true, level: true }).extend({
  /** The floor's plan (an image key, shared/images.ts); null when none was uploaded. */
  planImage: z.string().nullable(),
  shops: z.array(FloorGuideShop),
  amenities: z.array(FloorGuideAmenity),
});
export type FloorGuideEntry = z.infer<typeof FloorGuideEntry>;
export const FloorGuide = z.object({ floors: z.array(FloorGuideEntry) });
export type FloorGuide = z.infer<typeof FloorGuide>;
