import { describe, expect, it } from 'vitest';
import { PlaceInput } from '../../shared/place';
import { placeNameKeys } from './place-name-keys';

/** Two names collide when either of their keys does (two unique indexes). */
const collide = (a: string, b: string): boolean => {
  const [x, y] = [placeNameKeys(a), placeNameKeys(b)];
  return x.nameKey === y.nameKey || x.nameGlyphKey === y.nameGlyphKey;
};

describe('placeNameKeys', () => {
  it.each([
    ['in another case', 'ELECTRONICS'],
    ['in small letters', 'electronics'],
    ['with a soft hyphen', 'Electronics\u00AD'],
    ['with a soft hyphen inside', 'Elec\u00ADtronics'],
    ['with a zero-width non-joiner', 'Elec\u200Ctronics'],
    ['with a zero-width joiner', 'Elec\u200Dtronics'],
    ['with a combining grapheme joiner', 'Elec\u034Ftronics'],
    ['with Hangul fillers', 'Elec\u3164\u115F\u1160\uFFA0tronics'],
    ['with a variation selector', 'Electronics\uFE0F'],
    ['with a tag character', 'Electronics\u{E0041}'],
    ['with a fullwidth capital', '\uFF25lectronics'],
    ['all fullwidth', '\uFF25\uFF4C\uFF45\uFF43\uFF54\uFF52\uFF4F\uFF4E\uFF49\uFF43\uFF53'],
    ['with a mathematical bold capital', '\u{1D404}lectronics'],
    ['with a Cyrillic dze', 'Electronic\u0455'],
    ['with Cyrillic es and o', 'Ele\u0441tr\u043Eni\u0441s'],
    ['with a Greek capital epsilon', '\u0395lectronics'],
    ['in capitals with a Greek epsilon and iota', '\u0395LECTRON\u0399CS'],
    ['in capitals with Cyrillic ones', '\u0415LECTR\u041ENICS'],
    ['with a digit zero', 'Electr0nics'],
    ['decomposed', 'Electronics'.normalize('NFD')],
  ])('"Electronics" %s collides', (_label, name) => {
    expect(collide('Electronics', name)).toBe(true);
  });

  it('folds case in every script, and full case folding (ß is ss)', () => {
    expect(collide('МАГАЗИН', 'магазин')).toBe(true);
    expect(collide('ΑΘΗΝΑ', 'αθηνα')).toBe(true);
    expect(collide('Straße', 'STRASSE')).toBe(true);
    expect(collide('Café', 'CAFÉ')).toBe(true);
  });

  it('takes capitals of other scripts for the Latin ones they look like', () => {
    expect(collide('H&M', '\u041D&\u041C')).toBe(true); // Cyrillic Н, М
    expect(collide('TEXAS', '\u0422\u0415\u0425\u0410\u0405')).toBe(true);
  });

  it('keeps different names apart', () => {
    for (const [a, b] of [
      ['Electronics', 'Electronic'],
      ['Electronics', 'Electronica'],
      ['Fashion', 'Fashions'],
      ['Ground', 'Ground 2'],
      ['Café', 'Cafe'],
      ['Еда', 'Eda'], // Cyrillic д looks like no Latin letter
      ['магазин', 'mara3nh'],
      ['Books', 'Boots'],
      ['Floor 1', 'Floor 2'],
    ]) {
      expect(collide(a as string, b as string), `${a} / ${b}`).toBe(false);
    }
  });

  it('takes what the skeleton takes alike: "rn" looks like "m", "1" and "l" alike', () => {
    // Accepted: these do look alike in many fonts (docs/decisions/011).
    expect(collide('Modern', 'Modem')).toBe(true);
    expect(collide('Level 1', 'Level l')).toBe(true);
  });

  it('is stable: the keys of a name never change between calls', () => {
    expect(placeNameKeys('Électronique ⅩⅡ')).toEqual(placeNameKeys('Électronique ⅩⅡ'));
  });
});

/**
 * Characters that show nothing, by class (docs/decisions/011): every default-ignorable code point and
 * every format character (\p{Cf}: prepended concatenation marks, Egyptian hieroglyph and musical format
 * controls, interlinear annotation marks, …), found here from the Unicode properties of this Node's ICU —
 * not from the list the fold uses — and the blank glyphs no property gathers.
 */
const SHOW_NOTHING = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;
const BLANK_GLYPHS = [0x2800, 0xfffc, 0x13441, 0x13442, 0x16fe4, 0x1d159];
/** The ones the security review named, checked by name too. */
const NAMED = [
  0x2800, 0x13430, 0x13438, 0x1343f, 0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06dd, 0x070f, 0x0890,
  0x0891, 0x08e2, 0x110bd, 0x110cd, 0xfffc, 0x1d159, 0x1d173, 0x1d17a, 0xfff9, 0xfffb, 0x180e, 0x2064,
];

function codePointsOfTheClass(): number[] {
  const found = new Set<number>([...BLANK_GLYPHS, ...NAMED]);
  for (let cp = 0; cp <= 0x10ffff; cp++)
    if ((cp < 0xd800 || cp > 0xdfff) && SHOW_NOTHING.test(String.fromCodePoint(cp))) found.add(cp);
  return [...found].sort((a, b) => a - b);
}

describe('a name with a character that shows nothing is the name without it', () => {
  /**
   * What creating the category would do beside "Food": refused by the text rules (the answer is a 400),
   * or taken — and then its keys must be "Food"'s (the answer is a 409). Never a second "Food".
   */
  function besideFood(name: string): 'refused' | 'duplicate' | 'distinct' {
    const parsed = PlaceInput.safeParse({ name });
    if (!parsed.success) return 'refused';
    return collide('Food', parsed.data.name) ? 'duplicate' : 'distinct';
  }

  const placements: Array<[label: string, place: (c: string) => string]> = [
    ['appended', (c) => `Food${c}`],
    ['inserted', (c) => `Fo${c}od`],
    ['put first', (c) => `${c}Food`],
    ['appended after a space', (c) => `Food ${c}`],
  ];

  it.each(placements)(
    'every code point of the class, %s: refused or a duplicate of "Food"',
    (_label, place) => {
      const all = codePointsOfTheClass();
      // Unicode 15 has over 4,000 of them (the reserved default-ignorable planes among them).
      expect(all.length).toBeGreaterThan(4000);
      const distinct = all
        .filter((cp) => besideFood(place(String.fromCodePoint(cp))) === 'distinct')
        .map((cp) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
      expect(distinct).toEqual([]);
    },
  );

  it.each(NAMED.map((cp) => [`U+${cp.toString(16).toUpperCase().padStart(4, '0')}`, cp] as const))(
    '"Food" + %s is no new name',
    (_label, cp) => {
      expect(besideFood(`Food${String.fromCodePoint(cp)}`)).not.toBe('distinct');
      expect(besideFood(`Fo${String.fromCodePoint(cp)}od`)).not.toBe('distinct');
    },
  );

  it('takes the blank glyphs and the concatenation marks out of the keys themselves (they are not refused)', () => {
    for (const cp of [0x2800, 0xfffc, 0x1d159, 0x13441, 0x0600, 0x06dd, 0x070f, 0x08e2, 0x110bd, 0x13430])
      expect(besideFood(`Food${String.fromCodePoint(cp)}`), cp.toString(16)).toBe('duplicate');
  });

  it('makes a run of white space one space: a page shows "Food  Court" as "Food Court"', () => {
    expect(collide('Food Court', 'Food  Court')).toBe(true);
    expect(collide('Food Court', 'Food\tCourt')).toBe(true);
    expect(collide('Food Court', 'Food \u2800 Court')).toBe(true);
    expect(collide('Food Court', 'FoodCourt')).toBe(false);
  });

  it('keeps visible symbols apart: a replacement character, a blank symbol, a white cluster notehead', () => {
    for (const character of ['\uFFFD', '\u2422', '\u{1D15A}', '\u{13443}'])
      expect(collide('Food', `Food${character}`), character).toBe(false);
  });
});
