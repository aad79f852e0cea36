// Floors and their amenities, without zod: what the shopper screens need (labels, the level's wording)
// stays out of the forms chunk. The schemas are in place.ts and amenity.ts (docs/decisions/018).

/** The levels an admin may give a floor. */
export const FLOOR_LEVEL_MIN = -99;
export const FLOOR_LEVEL_MAX = 999;

/** "Level −1", with a real minus sign. */
export function levelLabel(level: number): string {
  return `Level ${level < 0 ? `\u2212${-level}` : level}`;
}

/**
 * What a floor offers besides its shops: a fixed list of kinds (the Floors page gives each its icon), each
 * with where on the floor it is. The order here is the order on a floor.
 */
export const AMENITY_KINDS = [
  'information-desk',
  'restrooms',
  'accessible-restroom',
  'baby-care',
  'lift',
  'escalator',
  'atm',
  'food-court',
  'prayer-room',
  'first-aid',
  'drinking-water',
  'parking-entrance',
] as const;
export type AmenityKind = (typeof AMENITY_KINDS)[number];

export const AMENITY_LABELS: Record<AmenityKind, string> = {
  'information-desk': 'Information desk',
  restrooms: 'Restrooms',
  'accessible-restroom': 'Accessible restroom',
  'baby-care': 'Baby care room',
  lift: 'Lift',
  escalator: 'Escalator',
  atm: 'ATM',
  'food-court': 'Food court',
  'prayer-room': 'Prayer room',
  'first-aid': 'First aid',
  'drinking-water': 'Drinking water',
  'parking-entrance': 'Parking entrance',
};
