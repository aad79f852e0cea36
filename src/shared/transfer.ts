import './zod-config';
import { z } from 'zod';
import { EventFeedQuery } from './event';
import { OfferListQuery } from './offer';
import { ProductListQuery } from './product';
import { ShopListQuery } from './shop';
import { cleanLine } from './text';

/**
 * Bulk import and export as CSV (docs/decisions/022): the columns of each kind, the template's example
 * row and rules, and the shapes of an import run and its preview. The browser, the server and the CLI
 * read the same lists.
 */
export const EXPORT_KINDS = [
  'shops',
  'products',
  'offers',
  'categories',
  'floors',
  'synonyms',
  'events',
] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const IMPORT_KINDS = ['shops', 'products', 'offers', 'events', 'synonyms'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** Every kind's columns, in the export's order; an import takes them in any order. */
export const COLUMNS = {
  shops: ['code', 'name', 'category', 'floor', 'description', 'location', 'contact', 'opening_hours'],
  products: ['shop_code', 'shop', 'code', 'name', 'price', 'category', 'description', 'offer'],
  offers: ['shop_code', 'shop', 'title', 'description', 'discount', 'start_date', 'end_date'],
  categories: ['name'],
  floors: ['name', 'level'],
  /** Search synonyms (docs/decisions/035, 038): upserted by term. */
  synonyms: ['term', 'replacement'],
  // Events (issue 35, docs/decisions/038): times as the mall's wall clock, the repeat as its RRULE
  // (RFC 5545), tags and exception dates separated by spaces; the import reads back what the export writes.
  events: [
    'shop_code',
    'shop',
    'title',
    'description',
    'place_kind',
    'place',
    'all_day',
    'start_date',
    'start_time',
    'end_date',
    'end_time',
    'tags',
    'repeat',
    'except',
    'status',
  ],
} as const satisfies Record<ExportKind, readonly string[]>;

/** Columns an import file must have (products and offers: `shop` or `shop_code`, at least one). */
export const REQUIRED_COLUMNS: Record<ImportKind, readonly string[]> = {
  shops: ['name', 'category', 'floor'],
  products: ['name', 'price'],
  offers: ['title', 'discount', 'start_date', 'end_date'],
  // An event without shop columns is the mall's own; the rest are the event form's required fields.
  events: ['title', 'place_kind', 'all_day', 'start_date', 'end_date'],
  synonyms: ['term', 'replacement'],
};

/** The template's one example row per kind. */
export const TEMPLATE_EXAMPLE: Record<ImportKind, Record<string, string>> = {
  shops: {
    code: 'T-104',
    name: 'Green Leaf Books',
    category: 'Books',
    floor: 'First',
    description: 'New and second-hand books',
    location: 'Unit 104, beside the escalators',
    contact: '+1 555 0104',
    opening_hours: '10:00 – 21:00 daily',
  },
  products: {
    shop_code: 'T-104',
    shop: 'Green Leaf Books',
    code: 'GLB-0001',
    name: 'Reading lamp',
    price: '24.90',
    category: 'Lighting',
    description: 'Clip-on LED lamp',
    offer: '',
  },
  offers: {
    shop_code: 'T-104',
    shop: 'Green Leaf Books',
    title: 'Summer reading',
    description: 'Paperbacks at a fifth off',
    discount: '20',
    start_date: '2026-06-01',
    end_date: '2026-08-31',
  },
  events: {
    shop_code: 'T-104',
    shop: 'Green Leaf Books',
    title: 'Story time',
    description: 'Picture books read aloud, for children up to seven',
    place_kind: 'shop',
    place: 'Green Leaf Books',
    all_day: 'no',
    start_date: '2026-06-06',
    start_time: '10:30',
    end_date: '2026-06-06',
    end_time: '11:15',
    tags: 'kids books',
    repeat: 'FREQ=WEEKLY;BYDAY=SA;COUNT=8',
    except: '2026-06-20',
    status: 'scheduled',
  },
  synonyms: { term: 'loo', replacement: 'toilets' },
};

/** What the template says under its example row, one rule a line. */
export const IMPORT_RULES: Record<ImportKind, readonly string[]> = {
  shops: [
    'code: optional, unique in the mall; a row with a known code updates that shop, a new code creates one.',
    'Without a code, a shop with exactly this name is updated (the preview says "matched by name").',
    'category and floor: names; ones the mall does not have yet are listed in the preview and created.',
  ],
  products: [
    'shop_code or shop: the product’s shop, by its code or its exact name.',
    'code: optional, unique within the shop; without it a product of the shop with exactly this name is updated.',
    'price: a number with at most 2 decimals, such as 24.90. offer: the title of one of the shop’s offers, or empty.',
  ],
  offers: [
    'shop_code or shop: the offer’s shop. An offer of the shop with exactly this title is updated.',
    'discount: a whole number from 1 to 100. Dates as YYYY-MM-DD; the end on or after the start.',
  ],
  events: [
    'shop_code or shop: the organizing shop, by its code or its exact name; both empty: the mall’s own event.',
    'An event of the same organizer with exactly this title and start date is updated (several that day: the one starting at start_time); otherwise one is created, live at once.',
    'place_kind: mall, floor, amenity or shop. place: the floor’s, the amenity’s (as the export writes it, “Toilets, near Gate 2”) or the shop’s name; empty for the whole mall.',
    'all_day: yes or no. Dates as YYYY-MM-DD, times as HH:MM on the mall’s clock (empty when all day).',
    'tags: separated by spaces (kids late-night). repeat: an RRULE such as FREQ=WEEKLY;BYDAY=SA;COUNT=8 (FREQ weekly or monthly, INTERVAL, BYDAY, UNTIL or COUNT), empty for once. except: dates it does not take place, separated by spaces.',
    'status: scheduled or cancelled.',
  ],
  synonyms: [
    'term: what shoppers type; replacement: what search looks for instead. Both are kept as search reads them (lower case, no accents).',
    'A row whose term the mall has already changes its replacement; a new term is added.',
  ],
};

/** The largest file an import takes (about 200,000 product rows with long descriptions). */
export const IMPORT_MAX_BYTES = 40 * 1024 * 1024;

/** An export's filters: the list's own query, without the page. */
export const ExportQuery = {
  shops: ShopListQuery.omit({ page: true, pageSize: true }),
  products: ProductListQuery.omit({ page: true, pageSize: true }),
  offers: OfferListQuery.omit({ page: true, pageSize: true }),
  categories: z.strictObject({}),
  floors: z.strictObject({}),
  synonyms: z.strictObject({}),
  events: EventFeedQuery,
} as const;

export const ImportStartQuery = z.strictObject({
  kind: z.enum(IMPORT_KINDS, { error: 'Kind must be shops, products, offers, events or synonyms' }),
  /** Shown as the run's title and in the audit log: one line of clean text (shared/text.ts). */
  fileName: cleanLine(200, 'File name must be at most 200 characters', 'File name must be one line')
    .pipe(z.string().min(1, 'File name is required'))
    .default('import.csv'),
});

export const ImportConfirmInput = z.strictObject({
  /** Import the valid rows and leave the refused ones; otherwise one refused row stops the run. */
  validOnly: z.boolean({ error: 'Choose whether to import the valid rows only' }).default(false),
});
export type ImportConfirmInput = z.input<typeof ImportConfirmInput>;

/** One refused row: its line in the file and each problem, with the form's own message. */
export const RefusedRow = z.object({
  line: z.number().int(),
  errors: z.array(z.object({ column: z.string(), message: z.string() })),
});
export type RefusedRow = z.infer<typeof RefusedRow>;

export const ImportCounts = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
});
export type ImportCounts = z.infer<typeof ImportCounts>;

export const ImportPreview = z.object({
  counts: ImportCounts,
  /** The first refused rows (all of them are in the error file). */
  refused: z.array(RefusedRow),
  /** Lines of the first rows that update a record found by its exact name (no code). */
  matchedByName: z.array(z.number().int()),
  /** How many rows were matched by name in all. */
  matchedByNameTotal: z.number().int(),
  /** Categories and floors the file names that the mall does not have: created on confirm. */
  newCategories: z.array(z.string()),
  newFloors: z.array(z.string()),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

export const IMPORT_STATUSES = ['checking', 'previewed', 'running', 'done', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const ImportRun = z.object({
  id: z.string(),
  kind: z.enum(IMPORT_KINDS),
  fileName: z.string(),
  status: z.enum(IMPORT_STATUSES),
  validOnly: z.boolean(),
  rowsTotal: z.number().int(),
  rowsChecked: z.number().int(),
  preview: ImportPreview.nullable(),
  /**
   * A confirmed run: what it wrote; a failed one: why (`error`), and `interrupted` when its server
   * stopped while it ran (its lease ran out: decision 022).
   */
  result: z
    .object({
      counts: ImportCounts.optional(),
      error: z.string().optional(),
      interrupted: z.boolean().optional(),
    })
    .nullable(),
  createdByEmail: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportRun = z.infer<typeof ImportRun>;

/** The first refused rows a preview carries; the error file has every one. */
export const PREVIEW_REFUSED_MAX = 200;
