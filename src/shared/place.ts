import './zod-config';
import { z } from 'zod';
import { requiredText } from './text';

/** Categories and floors share one shape ("places" of a shop in the directory). */
export const PLACE_NAME_MAX = 60;

export const PlaceInput = z.strictObject({
  name: requiredText(PLACE_NAME_MAX, 'Name is required', `Name must be at most ${PLACE_NAME_MAX} characters`),
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
