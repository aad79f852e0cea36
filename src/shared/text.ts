import './zod-config';
import { z } from 'zod';

/**
 * Text a person typed: invisible spaces removed, line and paragraph separators made newlines, trimmed,
 * NFC-normalised; control characters (tabs and newlines aside), text-direction controls and tag
 * characters outside a flag refused. Multi-line: descriptions and comments keep their line breaks (for a
 * field of one line, see `cleanLine`). See docs/decisions/006 and 011.
 */
export function cleanText(max: number, tooLong: string) {
  return checkedText(max, tooLong, null);
}

/**
 * Text of one line — a name, a title, a location, a code: what `cleanText` takes, less any line break
 * (`oneLine`, e.g. 'Name must be one line'). A break at either end is trimmed away like a space; one
 * inside is refused, never stored: a name that breaks a line can break a CSV row, a log line or a mail
 * header, and pass a second line off as part of the first (`a\r\n=1+1`).
 */
export function cleanLine(max: number, tooLong: string, oneLine: string) {
  return checkedText(max, tooLong, oneLine);
}

function checkedText(max: number, tooLong: string, oneLine: string | null) {
  const checked = z.string().max(max, tooLong);
  return z
    .string()
    .transform(tidy)
    .pipe(
      (oneLine === null ? checked : checked.refine((value) => !LINE_BREAK.test(value), oneLine))
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
 * newline they mean, which every multi-line field takes and every field of one line refuses (and
 * JavaScript source and JSON-in-HTML no longer meet a line break that is not one to them).
 */
const LINE_SEPARATORS = /[\u2028\u2029]/g;
/**
 * Every mandatory line break of Unicode (UAX #14 classes BK, CR, LF, NL): LF, VT, FF, CR, NEL (U+0085),
 * and the line and paragraph separators — which are newlines by the time this is tested.
 */
const LINE_BREAK = /[\n\v\f\r\u0085\u2028\u2029]/;

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
 * A character that shows nothing (docs/decisions/011), by class rather than by list:
 * - `Default_Ignorable_Code_Point`: soft hyphen, joiners, the combining grapheme joiner, the Hangul
 *   fillers U+115F, U+1160, U+3164 and U+FFA0, variation selectors, tags, and the code points Unicode
 *   keeps for more of them;
 * - `\p{Cf}`, every format character: those not ignorable by default too — the prepended concatenation
 *   marks (U+0600–0605, U+06DD, U+070F, U+0890–0891, U+08E2, U+110BD, U+110CD), the Egyptian
 *   hieroglyph format controls (U+13430–1343F), the interlinear annotation marks (U+FFF9–FFFB) — and
 *   those that are (the musical beam, tie, slur and phrase controls U+1D173–1D17A). They shape or
 *   annotate what is around them and show no letter of their own (a concatenation mark shows only over
 *   digits that follow it);
 * - characters whose glyph is blank by definition, which no property gathers: the blank braille pattern
 *   U+2800, the object replacement character U+FFFC (a stand-in for an object plain text has not got),
 *   the Egyptian full and half blanks U+13441 and U+13442, the Khitan small script filler U+16FE4 and
 *   the musical null notehead U+1D159.
 * White space is not in it: it shows as a gap, and is trimmed away at either end.
 */
export const BLANK =
  /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800\uFFFC\u{13441}\u{13442}\u{16FE4}\u{1D159}]/u;
const BLANKS = new RegExp(BLANK.source, 'gu');
/** The text without the characters that show nothing (BLANK). */
export const withoutBlanks = (text: string): string => text.replace(BLANKS, '');

/** A name of only white space and characters that show nothing would be an invisible name. */
const NOTHING_VISIBLE = new RegExp(`^(?:\\s|${BLANK.source})*$`, 'u');
/** True when the text shows nothing: only white space and BLANK characters (or nothing at all). */
export const showsNothing = (text: string): boolean => NOTHING_VISIBLE.test(text);

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
 * Required text of several lines (a comment): the spec's message when it is empty, only spaces, or only
 * characters that show nothing.
 */
export function requiredText(max: number, required: string, tooLong: string) {
  return requiredOf(cleanText(max, tooLong), required);
}

/**
 * A required name or title, one line: the spec's message when it is empty, only spaces, or only
 * characters that show nothing (an invisible name is no name); `oneLine` when it breaks a line.
 */
export function requiredLine(max: number, required: string, tooLong: string, oneLine: string) {
  return requiredOf(cleanLine(max, tooLong, oneLine), required);
}

function requiredOf(text: ReturnType<typeof cleanText>, required: string) {
  return z
    .string({ error: required })
    .pipe(text)
    .pipe(
      z
        .string()
        .min(1, required)
        .refine((value) => !showsNothing(value), required),
    );
}

/**
 * Optional free text of several lines (a description). No zod default on purpose: `.partial()` would
 * apply it and a PATCH would blank the field. A missing value takes the column's default ('') on insert.
 */
export function optionalText(max: number, tooLong: string) {
  return cleanText(max, tooLong).optional();
}

/** Optional text of one line (a location, a contact): as `optionalText`, and `oneLine` when it breaks a line. */
export function optionalLine(max: number, tooLong: string, oneLine: string) {
  return cleanLine(max, tooLong, oneLine).optional();
}

export const Id = (message: string) => z.uuid({ error: message });

/** A stable key from outside (a tenant id, a SKU) an import matches records by (docs/decisions/022). */
export const EXTERNAL_CODE_MAX = 64;
/** Optional: blank means none (null). Unique among shops, and among one shop's products. */
export const ExternalCode = cleanLine(
  EXTERNAL_CODE_MAX,
  `Code must be at most ${EXTERNAL_CODE_MAX} characters`,
  'Code must be one line',
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
