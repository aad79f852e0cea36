import './zod-config';
import { z } from 'zod';
import { calendarDate } from './offer';
import { SEARCH_CAP, SEARCH_TEXT_MAX } from './search';
import { cleanLine, requiredLine } from './text';

/**
 * Insights (issue 34, docs/decisions/035): what shoppers look at and search for, counted per mall day and
 * hour without cookies, addresses, account ids or user agents.
 *
 * What a browser reports (POST /api/insights/hits). A view of an item names the item's id; a search
 * names its text and what it found; the rest name the shop (taps) or floor (plans) or nothing.
 */
export const ITEM_HITS = [
  'shop_view',
  'offer_view',
  'product_view',
  'compare_add',
  'tap_phone',
  'tap_email',
  'tap_website',
  'floor_plan',
] as const;
export type ItemHit = (typeof ITEM_HITS)[number];

/** Counted with no subject: how often the Open-now filter was used. */
export const PLAIN_HITS = ['open_now'] as const;

/**
 * Every metric a counter row may have. A search adds `search` (1), `search_empty` (1 when it found
 * nothing), the number of results of each kind (`search_shops`…, their sums: divided by `search` they
 * are the average), and `dym_offered` when "Did you mean" was shown; taking it adds `dym_taken`.
 */
export const METRICS = [
  ...ITEM_HITS,
  ...PLAIN_HITS,
  'search',
  'search_empty',
  'search_shops',
  'search_products',
  'search_offers',
  'dym_offered',
  'dym_taken',
] as const;
export type Metric = (typeof METRICS)[number];

/**
 * A search text is kept only once this many different sessions typed it on one mall day (a rare text
 * may identify a person: a name, an address). Until then, and for ever if it never gets there, the
 * search counts only among "other searches" (an empty subject).
 */
export const SEARCH_MIN_SESSIONS = 3;

/** Hits one report may carry (a browser sends what it gathered in a few seconds). */
export const HITS_MAX = 50;

const searchText = z
  .string()
  .pipe(cleanLine(SEARCH_TEXT_MAX, 'Search text is too long', 'Search text must be one line'))
  .pipe(z.string().min(1, 'Type something to search for'));
const resultCount = z
  .number('Results must be a count')
  .int('Results must be a count')
  .min(0, 'Results must be a count')
  .max(SEARCH_CAP, 'Results must be a count');

export const ItemHitInput = z.strictObject({
  kind: z.enum(ITEM_HITS, 'Unknown kind of hit'),
  id: z.uuid('Unknown item'),
});
export const PlainHitInput = z.strictObject({ kind: z.enum(PLAIN_HITS, 'Unknown kind of hit') });
export const SearchHitInput = z.strictObject({
  kind: z.literal('search'),
  q: searchText,
  shops: resultCount,
  products: resultCount,
  offers: resultCount,
  /** Whether the answer offered "Did you mean …?". */
  didYouMean: z.boolean(),
});
/** The shopper took the "Did you mean" offered for `q`. */
export const TakenHitInput = z.strictObject({ kind: z.literal('dym_taken'), q: searchText });

export const HitInput = z.discriminatedUnion(
  'kind',
  [ItemHitInput, PlainHitInput, SearchHitInput, TakenHitInput],
  {
    error: 'Unknown kind of hit',
  },
);
export type HitInput = z.infer<typeof HitInput>;

export const HitsInput = z.strictObject({
  hits: z.array(HitInput).min(1, 'No hits').max(HITS_MAX, `At most ${HITS_MAX} hits at once`),
});
export type HitsInput = z.infer<typeof HitsInput>;

const day = calendarDate('Enter a date as YYYY-MM-DD');
/** Longest range a report covers. */
export const INSIGHTS_MAX_DAYS = 366;

/** ?from=&to= — mall dates, both included; the last 30 days when omitted. */
export const InsightsQuery = z
  .strictObject({ from: day.optional(), to: day.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'From must be before To', path: ['to'] });
export type InsightsQuery = z.input<typeof InsightsQuery>;

const Ranked = z.object({ id: z.string(), name: z.string(), n: z.number().int() });
const DayCount = z.object({ day: z.string(), n: z.number().int() });

export const SearchRow = z.object({
  text: z.string(),
  searches: z.number().int(),
  empty: z.number().int(),
  /** Average results per search, per kind. */
  shops: z.number(),
  products: z.number(),
  offers: z.number(),
  didYouMeanOffered: z.number().int(),
  didYouMeanTaken: z.number().int(),
});
export type SearchRow = z.infer<typeof SearchRow>;

export const EmptySearchRow = z.object({
  text: z.string(),
  searches: z.number().int(),
  /** What the mall has closest to it ("Did you mean" at a looser likeness), or null. */
  closest: z.string().nullable(),
  /** What the text finds now (a synonym added since, a new shop…): shops + products + offers. */
  findsNow: z.number().int(),
});
export type EmptySearchRow = z.infer<typeof EmptySearchRow>;

export const InsightsReport = z.object({
  from: z.string(),
  to: z.string(),
  totals: z.record(z.string(), z.number().int()),
  viewsPerDay: z.array(DayCount),
  searchesPerDay: z.array(DayCount),
  topShops: z.array(Ranked),
  topOffers: z.array(Ranked),
  topProducts: z.array(Ranked),
  topSearches: z.array(SearchRow),
  emptySearches: z.array(EmptySearchRow),
  /** Searches whose text was too rare to keep (SEARCH_MIN_SESSIONS). */
  otherSearches: z.number().int(),
});
export type InsightsReport = z.infer<typeof InsightsReport>;

/** One shop's numbers, for the mall office and the shop's own managers. */
export const ShopInsights = z.object({
  from: z.string(),
  to: z.string(),
  shopId: z.string(),
  totals: z.record(z.string(), z.number().int()),
  viewsPerDay: z.array(DayCount),
});
export type ShopInsights = z.infer<typeof ShopInsights>;

/** How long a range is when none is asked for. */
export const INSIGHTS_DEFAULT_DAYS = 30;

// ——— Synonyms ———

export const SYNONYM_TEXT_MAX = 60;
export const SYNONYM_MESSAGES = {
  termRequired: 'Term is required',
  termTooLong: `Term must be at most ${SYNONYM_TEXT_MAX} characters`,
  termOneLine: 'Term must be one line',
  replacementRequired: 'Searched as is required',
  replacementTooLong: `Searched as must be at most ${SYNONYM_TEXT_MAX} characters`,
  replacementOneLine: 'Searched as must be one line',
} as const;
const M = SYNONYM_MESSAGES;
export const SynonymInput = z.strictObject({
  /** What shoppers type ("loo"). */
  term: requiredLine(SYNONYM_TEXT_MAX, M.termRequired, M.termTooLong, M.termOneLine),
  /** What the mall calls it ("toilets"): searched instead. */
  replacement: requiredLine(
    SYNONYM_TEXT_MAX,
    M.replacementRequired,
    M.replacementTooLong,
    M.replacementOneLine,
  ),
});
export type SynonymInput = z.input<typeof SynonymInput>;

export const Synonym = z.object({
  id: z.string(),
  term: z.string(),
  replacement: z.string(),
  createdAt: z.string(),
});
export type Synonym = z.infer<typeof Synonym>;
export const SynonymList = z.object({ items: z.array(Synonym) });
export type SynonymList = z.infer<typeof SynonymList>;
