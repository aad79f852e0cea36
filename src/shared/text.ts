import './zod-config';
import { z } from 'zod';

/**
 * Text a person typed: invisible spaces removed, line and paragraph separators made newlines, trimmed,
 * NFC-normalised; control characters (tabs and newlines aside), text-direction controls and tag
 * characters outside a flag refused. See docs/decisions/006 and 011.
 */
export function cleanText(max: number, tooLong: string) {
  return z
    .string()
    .transform(tidy)
    .pipe(
      z
        .string()
        .max(max, tooLong)
        .refine((value) => !hasControlCharacters(value), CONTROL_CHARACTERS)
        .refine((value) => !hasLoneSurrogates(value), BROKEN_CHARACTERS)
        .refine((value) => !DIRECTION_CONTROLS.test(value), DIRECTION_CHARACTERS)
        .refine((value) => !hasStrayTags(value), TAG_CHARACTERS),
    );
}

const CONTROL_CHARACTERS = 'Remove the control characters';
const BROKEN_CHARACTERS = 'Remove the broken characters';
export const DIRECTION_CHARACTERS = 'Remove the text-direction control characters';
export const TAG_CHARACTERS = 'Remove the invisible tag characters';

/**
 * Zero-width space, word joiner and BOM: invisible, meaningless in a name, and they would let
 * "Fash\u200Bion" pass as a second "Fashion". (Zero-width joiner and non-joiner stay: emoji and many
 * scripts need them.)
 */
const INVISIBLE = /[\u200B\u2060\uFEFF]/g;
/** Embeddings, overrides and isolates (U+202A–202E, U+2066–2069): they can make text display as other text. */
const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

/**
 * Line and paragraph separators (U+2028, U+2029): line breaks that some programs paste. They become the
 * newline they mean, which every text field already takes (and JavaScript source and JSON-in-HTML no
 * longer meet a line break that is not one to them).
 */
const LINE_SEPARATORS = /[\u2028\u2029]/g;

const tidy = (value: string) =>
  value.replace(INVISIBLE, '').replace(LINE_SEPARATORS, '\n').trim().normalize('NFC');

/**
 * Tag characters (U+E0000–E007F) are invisible and can carry a hidden ASCII message. Their one use is a
 * subdivision flag: a black flag, a region and subdivision code spelt in tag letters and digits, a
 * cancel tag (England: 🏴 g b e n g + cancel). Those stay; any other tag character is refused.
 */
const FLAG_TAG_SEQUENCE =
  /\u{1F3F4}[\u{E0061}-\u{E007A}]{2}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,4}\u{E007F}/gu;
const TAG = /[\u{E0000}-\u{E007F}]/u;
const hasStrayTags = (value: string) => TAG.test(value.replace(FLAG_TAG_SEQUENCE, ''));

/**
 * What shows nothing by itself: white space, default-ignorable characters (soft hyphen, joiners, the
 * combining grapheme joiner, Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, variation selectors, tags)
 * and the blank braille pattern U+2800 (a symbol, not ignorable, yet blank). A name of only these would
 * be an invisible name.
 */
const NOTHING_VISIBLE = /^[\s\p{Default_Ignorable_Code_Point}\u2800]*$/u;

/** Half of an emoji or other astral character on its own: not text, and the database would mangle it. */
function hasLoneSurrogates(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return true;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return true;
    }
  }
  return false;
}

/** C0 controls other than tab, newline and carriage return, DEL, and the C1 controls (U+0080–009F). */
function hasControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f))
      return true;
  }
  return false;
}

/**
 * A required name or title: the spec's message when it is empty, only spaces, or only characters that
 * show nothing (an invisible name is no name).
 */
export function requiredText(max: number, required: string, tooLong: string) {
  return z
    .string({ error: required })
    .pipe(cleanText(max, tooLong))
    .pipe(
      z
        .string()
        .min(1, required)
        .refine((value) => !NOTHING_VISIBLE.test(value), required),
    );
}

/**
 * Optional free text. No zod default on purpose: `.partial()` would apply it and a PATCH would blank
 * the field. A missing value takes the column's default ('') on insert.
 */
export function optionalText(max: number, tooLong: string) {
  return cleanText(max, tooLong).optional();
}

export const Id = (message: string) => z.uuid({ error: message });

/** A stable key from outside (a tenant id, a SKU) an import matches records by (docs/decisions/022). */
export const EXTERNAL_CODE_MAX = 64;
/** Optional: blank means none (null). Unique among shops, and among one shop's products. */
export const ExternalCode = cleanText(
  EXTERNAL_CODE_MAX,
  `Code must be at most ${EXTERNAL_CODE_MAX} characters`,
)
  .transform((value) => (value === '' ? null : value))
  .nullable()
  .optional();

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

/** ?page=&pageSize= — query strings are text, so these two are coerced. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

export interface Page<T> {
  items: T[];
  total: number;
  totalCapped?: boolean;
  page: number;
  pageSize: number;
}

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    /** A name search counts at most SEARCH_COUNT_CAP matches: then `total` is that cap, and there are more. */
    totalCapped: z.boolean().optional(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

/**
 * Counting every match of a common word over 200,000 products costs far more than finding a page of
 * them; past this many, lists say "1000+" (and the pages stop there: refine the search).
 */
export const SEARCH_COUNT_CAP = 1000;

/** Optional search text in a query string: blank means no filter. */
export const SearchText = z
  .string()
  .max(200, 'Search text must be at most 200 characters')
  .refine((value) => !hasControlCharacters(value), CONTROL_CHARACTERS)
  .refine((value) => !hasLoneSurrogates(value), BROKEN_CHARACTERS)
  .transform(tidy)
  .optional()
  .transform((value) => (value ? value : undefined));
