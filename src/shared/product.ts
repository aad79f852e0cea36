import './zod-config';
import { z } from 'zod';
import { hasAtMostTwoDecimals, PRICE_MAX } from './money';
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

export const PRODUCT_LIMITS = { name: 120, description: 2000, category: 60 } as const;
const PRICE_MESSAGE = 'Valid price is required';

export const ProductInput = z.strictObject({
  name: requiredLine(
    PRODUCT_LIMITS.name,
    'Name is required',
    `Name must be at most ${PRODUCT_LIMITS.name} characters`,
    'Name must be one line',
  ),
  description: optionalText(
    PRODUCT_LIMITS.description,
    `Description must be at most ${PRODUCT_LIMITS.description} characters`,
  ),
  // A JSON number, never a string: "12" is not a price. NaN (an empty number input) is refused too.
  price: z
    .number({ error: PRICE_MESSAGE })
    .min(0, PRICE_MESSAGE)
    .max(PRICE_MAX, 'Price is too large')
    .refine(hasAtMostTwoDecimals, 'Price can have at most 2 decimal places')
    // the price input steps in cents, as the refine above allows (read by the client's form).
    .meta({ step: 0.01 }),
  category: optionalLine(
    PRODUCT_LIMITS.category,
    `Category must be at most ${PRODUCT_LIMITS.category} characters`,
    'Category must be one line',
  ),
  shopId: Id('Shop is required'),
  /** Missing or null: no offer. */
  offerId: z.uuid('Unknown offer').nullable().optional(),
  /** The product's code outside the mall (a SKU), unique within its shop; imports match by it. */
  externalCode: ExternalCode,
});
export type ProductInput = z.input<typeof ProductInput>;
export const ProductPatch = ProductInput.partial();
export type ProductPatch = z.input<typeof ProductPatch>;

export const ProductListQuery = z.strictObject({
  ...PageQuery.shape,
  q: SearchText,
  shopId: z.uuid('Unknown shop').optional(),
  category: SearchText,
  onOffer: z.enum(['true', 'false']).optional(),
});
export type ProductListQuery = z.input<typeof ProductListQuery>;

export const ProductOffer = z.object({
  id: z.string(),
  title: z.string(),
  discount: z.number().int(),
  endDate: z.string(),
  active: z.boolean(),
});

export const Product = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Exact, two decimals: "1299.00". */
  price: z.string(),
  category: z.string(),
  shopId: z.string(),
  shopName: z.string(),
  offerId: z.string().nullable(),
  offer: ProductOffer.nullable(),
  /** The price with the offer's discount while the offer is active; null otherwise. */
  offerPrice: z.string().nullable(),
  externalCode: z.string().nullable(),
  /** The product's photo and its shop's logo: image keys (shared/images.ts), null when none. */
  image: z.string().nullable(),
  shopLogo: z.string().nullable(),
  createdAt: z.string(),
});
export type Product = z.infer<typeof Product>;
export const ProductPage = pageSchema(Product);
