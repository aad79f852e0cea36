import './zod-config';
import { z } from 'zod';
import { cleanText, PAGE_SIZE_MAX } from './text';

/** The mall-wide search (GET /api/search, docs/decisions/016): what it finds, in the order it shows them. */
export const SEARCH_KINDS = ['shops', 'products', 'offers'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_TEXT_MAX = 100;
export const SEARCH_REQUIRED = 'Type something to search for';
export const SEARCH_TOO_LONG = `Search text must be at most ${SEARCH_TEXT_MAX} characters`;
/** Results per group when every group is asked for (the top bar's dropdown and the "All" view). */
export const SEARCH_PREVIEW_SIZE = 5;
/** Results per page of one group (?kind=). */
export const SEARCH_PAGE_SIZE = 20;
/** Matches counted and ranked per group; beyond, the count says "100+" (a longer search narrows it). */
export const SEARCH_CAP = 100;

/** ?q=&kind=&page=&pageSize= — without `kind`, the first page of every group. */
export const SearchQuery = z.strictObject({
  q: z
    .string({ error: SEARCH_REQUIRED })
    .pipe(cleanText(SEARCH_TEXT_MAX, SEARCH_TOO_LONG))
    .pipe(z.string().min(1, SEARCH_REQUIRED)),
  kind: z.enum(SEARCH_KINDS, 'Kind must be shops, products or offers').optional(),
  page: z.coerce.number().int().min(1).max(SEARCH_CAP).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).optional(),
});
export type SearchQuery = z.input<typeof SearchQuery>;

export const SearchShop = z.object({
  id: z.string(),
  /** Its public address (docs/decisions/034). */
  slug: z.string(),
  name: z.string(),
  category: z.string(),
  floor: z.string(),
  location: z.string(),
  /** The shop's logo (an image key: shared/images.ts), or null: the monogram. */
  logo: z.string().nullable(),
});
export type SearchShop = z.infer<typeof SearchShop>;

export const SearchProduct = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  price: z.string(),
  shopId: z.string(),
  shopName: z.string(),
  /** The product's photo (an image key), or null. */
  image: z.string().nullable(),
});
export type SearchProduct = z.infer<typeof SearchProduct>;

export const SearchOffer = z.object({
  id: z.string(),
  title: z.string(),
  discount: z.number().int(),
  endDate: z.string(),
  shopId: z.string(),
  shopName: z.string(),
  /** The offering shop's logo (an image key), or null. */
  shopLogo: z.string().nullable(),
});
export type SearchOffer = z.infer<typeof SearchOffer>;

function group<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    /** Matches, counted up to SEARCH_CAP; `totalCapped` when there are more. */
    total: z.number().int(),
    totalCapped: z.boolean(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

export const SearchResults = z.object({
  /** The search as the server read it (tidied). */
  q: z.string(),
  /** What was looked for: the search folded, each word the mall does not have replaced by its nearest. */
  searched: z.string(),
  /** Each group asked for: all three without ?kind=, else that one. */
  shops: group(SearchShop).optional(),
  products: group(SearchProduct).optional(),
  offers: group(SearchOffer).optional(),
  /** When nothing matched: the same search spelt with the mall's own words, or null. */
  didYouMean: z.string().nullable(),
});
export type SearchResults = z.infer<typeof SearchResults>;
export type SearchGroup<K extends SearchKind> = NonNullable<SearchResults[K]>;
