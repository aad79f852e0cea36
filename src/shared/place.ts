import './zod-config';
import { z } from 'zod';
import { FLOOR_LEVEL_MAX, FLOOR_LEVEL_MIN } from './floors';
import { STORE_TYPES, StoreTypeField } from './mall-profile';
import { requiredLine } from './text';

export { FLOOR_LEVEL_MAX, FLOOR_LEVEL_MIN, levelLabel } from './floors';

/** Categories and floors share one shape ("places" of a shop in the directory). */
export const PLACE_NAME_MAX = 60;

export const PlaceInput = z.strictObject({
  name: requiredLine(
    PLACE_NAME_MAX,
    'Name is required',
    `Name must be at most ${PLACE_NAME_MAX} characters`,
    'Name must be one line',
  ),
});
export type PlaceInput = z.input<typeof PlaceInput>;

export const Place = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** How many shops use it: deleting is refused while this is above 0. */
  shopCount: z.number().int(),
});
export type Place = z.infer<typeof Place>;

/**
 * A category also says what its shops are to search engines: the schema.org type of their structured data
 * on the public pages, `Store` or one of its subtypes (docs/decisions/034). Optional: a new category is a
 * plain `Store` until an admin says more.
 */
export const CategoryInput = PlaceInput.extend({ schemaType: StoreTypeField.optional() });
export type CategoryInput = z.input<typeof CategoryInput>;
/** A rename, another store type, or both. */
export const CategoryPatch = CategoryInput.partial().refine(
  (patch) => patch.name !== undefined || patch.schemaType !== undefined,
  // An empty change is a blank rename, as it was before categories had a store type.
  { message: 'Name is required', path: ['name'] },
);
export type CategoryPatch = z.input<typeof CategoryPatch>;

export const Category = Place.extend({ schemaType: z.enum(STORE_TYPES) });
export type Category = z.infer<typeof Category>;

/**
 * A floor's level: its place in the building, and the order of every floor list (Lower Ground −1,
 * Ground 0, First 1…). Unique: two floors at one level would have no order (docs/decisions/018).
 */
export const FLOOR_LEVEL_MESSAGE = `Level must be a whole number from ${FLOOR_LEVEL_MIN} to ${FLOOR_LEVEL_MAX}`;
export const FloorLevel = z
  .number({ error: FLOOR_LEVEL_MESSAGE })
  .int(FLOOR_LEVEL_MESSAGE)
  .min(FLOOR_LEVEL_MIN, FLOOR_LEVEL_MESSAGE)
  .max(FLOOR_LEVEL_MAX, FLOOR_LEVEL_MESSAGE);

/** A new floor without a level goes one above the highest (the spec's add-a-floor flow sends a name only). */
export const FloorInput = z.strictObject({ name: PlaceInput.shape.name, level: FloorLevel.optional() });
export type FloorInput = z.input<typeof FloorInput>;
/** A rename, a move to another level, or both. */
export const FloorPatch = FloorInput.partial().refine(
  (patch) => patch.name !== undefined || patch.level !== undefined,
  // An empty change is a blank rename, as for categories.
  { message: 'Name is required', path: ['name'] },
);
export type FloorPatch = z.input<typeof FloorPatch>;

export const Floor = Place.extend({ level: z.number().int() });
export type Floor = z.infer<typeof Floor>;
