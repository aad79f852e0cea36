import './zod-config';
import { z } from 'zod';
import { IMAGE_KEY_PATTERN } from './images';
import { cleanLine, requiredLine } from './text';

/**
 * The mall's own profile (docs/decisions/034): its name, address, phone, map position, currency, logo and
 * public URL. Admins set it; the public directory's pages, their structured data and the sitemap use it.
 */
export const MALL_NAME_DEFAULT = 'Super Mall';
export const MALL_NAME_MAX = 80;
export const MALL_LINE_MAX = 120;
export const MALL_URL_MAX = 200;
export const MALL_POSTAL_CODE_MAX = 20;
export const MALL_PHONE_MAX = 40;
/** An image key that is not one of the mall's stored images (shared/images.ts). */
export const MALL_LOGO_MESSAGE = 'Logo must be an image uploaded to the mall';

/**
 * The schema.org types a category's shops may be described as: `Store` and its subtypes
 * (https://schema.org/Store). `Store` when nothing more specific fits.
 */
export const STORE_TYPES = [
  'Store',
  'AutoPartsStore',
  'BikeStore',
  'BookStore',
  'ClothingStore',
  'ComputerStore',
  'ConvenienceStore',
  'DepartmentStore',
  'ElectronicsStore',
  'Florist',
  'FurnitureStore',
  'GardenStore',
  'GroceryStore',
  'HardwareStore',
  'HobbyShop',
  'HomeGoodsStore',
  'JewelryStore',
  'LiquorStore',
  'MensClothingStore',
  'MobilePhoneStore',
  'MovieRentalStore',
  'MusicStore',
  'OfficeEquipmentStore',
  'OutletStore',
  'PawnShop',
  'PetStore',
  'ShoeStore',
  'SportingGoodsStore',
  'TireShop',
  'ToyStore',
  'WholesaleStore',
] as const;
export type StoreType = (typeof STORE_TYPES)[number];
export const StoreTypeField = z.enum(STORE_TYPES, { error: 'Choose a store type from the list' });

/** The profile as the API answers it. `logo` is an image key (shared/images.ts); `publicUrl` '' = not set. */
export const MallProfile = z.object({
  name: z.string(),
  streetAddress: z.string(),
  locality: z.string(),
  region: z.string(),
  postalCode: z.string(),
  /** ISO 3166-1 alpha-2 ("IN"), or ''. */
  country: z.string(),
  phone: z.string(),
  /** Both or neither. */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** ISO 4217 ("INR"). */
  currency: z.string(),
  logo: z.string().nullable(),
  /** https://… without a trailing slash, or ''. */
  publicUrl: z.string(),
  updatedAt: z.string().nullable(),
});
export type MallProfile = z.infer<typeof MallProfile>;

const line = (label: string, max = MALL_LINE_MAX) =>
  cleanLine(max, `${label} must be at most ${max} characters`, `${label} must be one line`);

/**
 * What an admin sets (PUT /api/mall/profile): every field, as the form shows them. The logo has its own
 * upload route (PUT /api/mall/profile/logo, as a shop's); here it may be left out (kept as it is), null
 * (removed) or the key of an image the mall already stores.
 */
export const MallProfileInput = z
  .strictObject({
    // Shows something, as every name (docs/decisions/011).
    name: requiredLine(
      MALL_NAME_MAX,
      'Mall name is required',
      `Mall name must be at most ${MALL_NAME_MAX} characters`,
      'Mall name must be one line',
    ),
    streetAddress: line('Street address'),
    locality: line('Town or city'),
    region: line('Region'),
    postalCode: line('Postal code', MALL_POSTAL_CODE_MAX),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^([A-Z]{2})?$/, 'Country must be a two-letter code, such as IN or GB'),
    phone: line('Phone', MALL_PHONE_MAX),
    latitude: z
      .number({ error: 'Latitude must be a number from -90 to 90' })
      .min(-90, 'Latitude must be a number from -90 to 90')
      .max(90, 'Latitude must be a number from -90 to 90')
      .nullable(),
    longitude: z
      .number({ error: 'Longitude must be a number from -180 to 180' })
      .min(-180, 'Longitude must be a number from -180 to 180')
      .max(180, 'Longitude must be a number from -180 to 180')
      .nullable(),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, 'Currency must be a three-letter code, such as INR or EUR'),
    logo: z.string().regex(IMAGE_KEY_PATTERN, MALL_LOGO_MESSAGE).nullable().optional(),
    publicUrl: z
      .string()
      .trim()
      .max(MALL_URL_MAX, `Public URL must be at most ${MALL_URL_MAX} characters`)
      .refine(
        (value) => value === '' || isPublicUrl(value),
        'Public URL must start with https:// or http:// and name a host, such as https://mall.example.com',
      )
      // The base of every canonical URL: "https://mall.example.com/" and "…com" are one address.
      .transform((value) => value.replace(/\/+$/, '')),
  })
  .refine((input) => (input.latitude === null) === (input.longitude === null), {
    message: 'Give both latitude and longitude, or neither',
    path: ['longitude'],
  });
export type MallProfileInput = z.input<typeof MallProfileInput>;

/** An http(s) URL with a host and nothing after its path (no query, no fragment, no credentials). */
export function isPublicUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.username === '' && url.password === '' && url.hostname !== '';
  } catch {
    return false;
  }
}
