import './zod-config';
import { z } from 'zod';

/**
 * Text a person typed: invisible spaces removed, trimmed, NFC-normalised; control characters (tabs and
 * newlines aside) and text-direction controls refused. See docs/decisions/006.
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
        .refine((value) => !DIRECTION_CONTROLS.test(value), DIRECTION_CHARACTERS),
    );
}

const CONTROL_CHARACTERS = 'Remove the control characters';
const BROKEN_CHARACTERS = 'Remove the broken characters';
export const DIRECTION_CHARACTERS = 'Remove the text-direction control characters';

/**
 * Zero-width space, word joiner and BOM: invisible, meaningless in a name, and they would let
 * "Fash\u200Bion" pass as a second "Fashion". (Zero-width joiner and non-joiner stay: emoji and many
 * scripts need them.)
 */
const INVISIBLE = /[\u200B\u2060\uFEFF]/g;
/** Embeddings, overrides and isolates (U+202A–202E, U+2066–2069): they can make text display as other text. */
const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

const tidy = (value: string) => value.replace(INVISIBLE, '').trim().normalize('NFC');

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

/** C0 controls other than tab, newline and carriage return, and DEL. */
function hasControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return true;
  }
  return false;
}

/** A required name or title: the spec's message when it is empty or only spaces. */
export function requiredText(max: number, required: string, tooLong: string) {
  return z.string({ error: required }).pipe(cleanText(max, tooLong)).pipe(z.string().min(1, required));
}

/**
 * Optional free text. No zod default on purpose: `.partial()` would apply it and a PATCH would blank
 * the field. A missing value takes the column's default ('') on insert.
 */
export function optionalText(max: number, tooLong: string) {
  return cleanText(max, tooLong).optional();
}

export const Id = (message: string) => z.uuid({ error: message });

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
