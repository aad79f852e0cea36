import './zod-config';
import { z } from 'zod';
import { OpeningHours, StoredHours } from './hours';
import {
  ExternalCode,
  Id,
  optionalLine,
  optionalText,
  PageQuery,
  pageSchema,
  requiredLine,
  SearchText,
} from './text';

export const SHOP_LIMITS = {
  name: 120,
  description: 2000,
  location: 200,
  contact: 200,
  openingHours: 200,
} as const;

export const ShopInput = z.strictObject({
  name: requiredLine(
    SHOP_LIMITS.name,
    'Name is required',
    `Name must be at most ${SHOP_LIMITS.name} characters`,
    'Name must be one line',
  ),
  description: optionalText(
    SHOP_LIMITS.description,
    `Description must be at most ${SHOP_LIMITS.description} characters`,
  ),
  categoryId: Id('Category is required'),
  floorId: Id('Floor is required'),
  location: optionalLine(
    SHOP_LIMITS.location,
    `Location must be at most ${SHOP_LIMITS.location} characters`,
    'Location must be one line',
  ),
  contact: optionalLine(
    SHOP_LIMITS.contact,
    `Contact must be at most ${SHOP_LIMITS.contact} characters`,
    'Contact must be one line',
  ),
  openingHours: optionalLine(
    SHOP_LIMITS.openingHours,
    `Opening hours must be at most ${SHOP_LIMITS.openingHours} characters`,
    'Opening hours must be one line',
  ),
  /** Structured hours beside the free text (docs/decisions/017); null or absent: none. */
  hours: OpeningHours.nullable().optional(),
  /** The shop's code outside the mall (a tenant id), unique in the mall; imports match by it. */
  externalCode: ExternalCode,
});
export type ShopInput = z.input<typeof ShopInput>;
export const ShopPatch = ShopInput.partial();
export type ShopPatch = z.input<typeof ShopPatch>;
/** What a shop's manager changes on its page (permissions.ts MANAGER_SHOP_FIELDS): not name, category, floor. */
export const ShopListingInput = ShopInput.pick({
  description: true,
  location: true,
  contact: true,
  openingHours: true,
  hours: true,
});
export type ShopListingInput = z.input<typeof ShopListingInput>;

export const ShopListQuery = z.strictObject({
  ...PageQuery.shape,
  q: SearchText,
  categoryId: z.uuid('Unknown category').optional(),
  floorId: z.uuid('Unknown floor').optional(),
  /**
   * Only shops open at this instant (the "Open now" filter), to the minute in UTC: the browser sends its
   * own "now" corrected by the server's clock, so the answer depends on the URL, not on the clock, and
   * stays cacheable (docs/decisions/017).
   */
  openAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/, 'Open at must be a UTC minute, as YYYY-MM-DDTHH:MMZ')
    .refine(
      (value) =>
        !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().startsWith(value.slice(0, 16)),
      'Open at must be a real time',
    )
    .optional(),
});
export type ShopListQuery = z.input<typeof ShopListQuery>;

export const Shop = z.object({
  id: z.string(),
  name: z.string(),
  /**
   * The shop's address in the public directory (`/shops/pixel-point`): made from its name by the database
   * on every create and rename, unique among every shop's slugs, old ones included (migration 0016). Never
   * written by the API: ShopInput refuses it.
   */
  slug: z.string(),
  description: z.string(),
  categoryId: z.string(),
  category: z.string(),
  floorId: z.string(),
  floor: z.string(),
  location: z.string(),
  contact: z.string(),
  openingHours: z.string(),
  hours: StoredHours.nullable(),
  externalCode: z.string().nullable(),
  /** Image keys (shared/images.ts): the logo and the cover photo, null when none. */
  logo: z.string().nullable(),
  cover: z.string().nullable(),
  /** The shop's pin on its floor's plan, as fractions of the plan's width and height; null when none. */
  pin: z.object({ x: z.number(), y: z.number() }).nullable(),
  createdAt: z.string(),
});
export type Shop = z.infer<typeof Shop>;

/** One shop with what its deletion would take with it. */
export const ShopDetail = Shop.extend({ productCount: z.number().int(), offerCount: z.number().int() });
export type ShopDetail = z.infer<typeof ShopDetail>;

export const ShopPage = pageSchema(Shop);
