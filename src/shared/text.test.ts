import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DisplayNameInput } from './account';
import { AmenityInput } from './amenity';
import { EmailField } from './auth';
import { AUTH_MESSAGES } from './errors';
import { SpecialDay } from './hours';
import { OfferInput, SendBackInput } from './offer';
import { PlaceInput } from './place';
import { ProductInput } from './product';
import { ShopInput } from './shop';
import { BLANK } from './text';
import { ImportStartQuery } from './transfer';

/** The first message a schema gives for `value` in `field` (what the forms and the API show), or null. */
function messageOf(schema: z.ZodType, base: Record<string, unknown>, field: string, value: unknown) {
  const result = schema.safeParse({ ...base, [field]: value });
  return result.success ? null : (result.error.issues.find((i) => i.path[0] === field)?.message ?? '?');
}

const ID = '00000000-0000-4000-8000-000000000000';
const OFFER = { title: 'Sale', discount: 10, startDate: '2026-01-01', endDate: '2026-01-31', shopId: ID };
const SHOP = { name: 'Shop', categoryId: ID, floorId: ID };
const PRODUCT = { name: 'Lamp', price: 12, shopId: ID };

/** Every field of one line, with a body its schema takes, and the message it gives for a line break. */
const ONE_LINE: Array<
  [label: string, schema: z.ZodType, base: Record<string, unknown>, field: string, message: string]
> = [
  ['category or floor name', PlaceInput, {}, 'name', 'Name must be one line'],
  ['shop name', ShopInput, SHOP, 'name', 'Name must be one line'],
  ['shop location', ShopInput, SHOP, 'location', 'Location must be one line'],
  ['shop contact', ShopInput, SHOP, 'contact', 'Contact must be one line'],
  ['shop opening hours (text)', ShopInput, SHOP, 'openingHours', 'Opening hours must be one line'],
  ['shop code', ShopInput, SHOP, 'externalCode', 'Code must be one line'],
  ['product name', ProductInput, PRODUCT, 'name', 'Name must be one line'],
  ['product category', ProductInput, PRODUCT, 'category', 'Category must be one line'],
  ['product code', ProductInput, PRODUCT, 'externalCode', 'Code must be one line'],
  ['offer title', OfferInput, OFFER, 'title', 'Title must be one line'],
  ['amenity location', AmenityInput, { floorId: ID, kind: 'lift' }, 'location', 'Location must be one line'],
  ['special day note', SpecialDay, { date: '2026-12-25', intervals: [] }, 'note', 'Note must be one line'],
  ['display name', DisplayNameInput, {}, 'displayName', 'Display name must be one line'],
  ['import file name', ImportStartQuery, { kind: 'shops' }, 'fileName', 'File name must be one line'],
];

/** Fields of several lines: they keep their line breaks. */
const MULTI_LINE: Array<[label: string, schema: z.ZodType, base: Record<string, unknown>, field: string]> = [
  ['shop description', ShopInput, SHOP, 'description'],
  ['product description', ProductInput, PRODUCT, 'description'],
  ['offer description', OfferInput, OFFER, 'description'],
  // Only the comment: the rest of the send-back body is not text.
  ['send-back comment', z.object({ comment: SendBackInput.shape.comment }), {}, 'comment'],
];

/** Every mandatory line break of Unicode (UAX #14: BK, CR, LF, NL), and CR LF. */
const BREAKS: Array<[label: string, text: string]> = [
  ['CR LF', '\r\n'],
  ['LF', '\n'],
  ['CR', '\r'],
  ['VT', '\v'],
  ['FF', '\f'],
  ['NEL (U+0085)', '\u0085'],
  ['LS (U+2028)', '\u2028'],
  ['PS (U+2029)', '\u2029'],
];

const CASES = ONE_LINE.flatMap(([label, schema, base, field, message]) =>
  BREAKS.map(
    ([breakLabel, text]) => [`${label}: ${breakLabel}`, schema, base, field, message, text] as const,
  ),
);

describe('a field of one line refuses a line break', () => {
  it.each(CASES)('%s inside is refused with its message', (_title, schema, base, field, message, text) => {
    expect(messageOf(schema, base, field, `a${text}=1+1`)).toBe(message);
    expect(messageOf(schema, base, field, `Food${text}${text}Court`)).toBe(message);
  });

  it.each(ONE_LINE)(
    '%s: the valid body is taken, and breaks at either end are trimmed',
    (_l, schema, base, field) => {
      expect(schema.safeParse({ ...base, [field]: 'Food Court' }).success).toBe(true);
      const parsed = schema.safeParse({ ...base, [field]: '\r\n\u2028Food Court\r\n\u2029\n' });
      expect(parsed.success).toBe(true);
      expect((parsed.data as Record<string, unknown>)[field]).toBe('Food Court');
    },
  );

  it('the category editor shows the message (it parses the name with PlaceInput)', () => {
    // What place-list-editor.tsx shows: the first issue's message.
    const parsed = PlaceInput.safeParse({ name: 'Food\u2028Court' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('Name must be one line');
    // An empty name keeps the spec's own message.
    expect(PlaceInput.safeParse({ name: '\r\n' }).error?.issues[0]?.message).toBe('Name is required');
  });

  it('an email with a line break inside is an invalid email, in the spec\u2019s words', () => {
    for (const [label, text] of BREAKS) {
      const parsed = EmailField.safeParse(`person${text}@example.com`);
      expect(parsed.success, label).toBe(false);
      expect(parsed.error?.issues[0]?.message, label).toBe(AUTH_MESSAGES.invalidEmail);
      expect(EmailField.safeParse(`person@example.com${text}bcc@example.com`).success, label).toBe(false);
    }
  });
});

describe('a field of several lines keeps its line breaks', () => {
  it.each(MULTI_LINE)('%s', (_label, schema, base, field) => {
    const value = (text: string) => {
      const parsed = schema.safeParse({ ...base, [field]: text });
      return parsed.success
        ? (parsed.data as Record<string, unknown>)[field]
        : parsed.error.issues[0]?.message;
    };
    expect(value('One\r\ntwo\nthree\rfour')).toBe('One\r\ntwo\nthree\rfour');
    expect(value('One\u2028two\u2029three')).toBe('One\ntwo\nthree');
    // VT, FF and NEL are control characters there, as before (docs/decisions/011).
    for (const text of ['\v', '\f', '\u0085'])
      expect(value(`One${text}two`)).toBe('Remove the control characters');
  });
});

describe('a name that shows nothing is refused (BLANK)', () => {
  it('every format character and default-ignorable character, and the blank glyphs, are BLANK', () => {
    const byProperty = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;
    const inClass: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++)
      if ((cp < 0xd800 || cp > 0xdfff) && byProperty.test(String.fromCodePoint(cp))) inClass.push(cp);
    expect(inClass.length).toBeGreaterThan(4000);
    expect(
      inClass.filter((cp) => !BLANK.test(String.fromCodePoint(cp))).map((cp) => cp.toString(16)),
    ).toEqual([]);
    for (const cp of [0x2800, 0xfffc, 0x13441, 0x13442, 0x16fe4, 0x1d159])
      expect(BLANK.test(String.fromCodePoint(cp)), cp.toString(16)).toBe(true);
    // Letters, spaces and visible symbols are not.
    for (const character of ['a', ' ', '\u3000', '\uFFFD', '\u2422', '\u{1D15A}', '\u0301'])
      expect(BLANK.test(character), character).toBe(false);
  });

  it.each([
    ['a prepended concatenation mark', '\u0600'],
    ['an Egyptian hieroglyph format control', '\u{13430}'],
    ['an object replacement character', '\uFFFC'],
    ['a musical null notehead', '\u{1D159}'],
    ['a blank braille pattern between spaces', ' \u2800 '],
    ['an interlinear annotation anchor', '\uFFF9'],
  ])('only %s: the spec\u2019s empty-field message', (_label, name) => {
    expect(messageOf(PlaceInput, {}, 'name', name)).toBe('Name is required');
    expect(messageOf(OfferInput, OFFER, 'title', name)).toBe('Title is required');
  });
});

describe('a display name that shows nothing', () => {
  it('is no display name, by the same class as every other name (BLANK)', () => {
    for (const blank of ['\u2800', '\u3164', '\u115F', '\uFFFC', '\u200B', ' \u2800 '])
      expect(DisplayNameInput.parse({ displayName: blank }).displayName, JSON.stringify(blank)).toBeNull();
    expect(DisplayNameInput.parse({ displayName: 'Dana' }).displayName).toBe('Dana');
  });
});
