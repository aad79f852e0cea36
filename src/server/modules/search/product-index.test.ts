import { describe, expect, it } from 'vitest';
import { ProductIndex, ProductIndexBuilder, type ProductRow } from './product-index';

const row = (id: string, block: number, offset: number, name: string, category = 'misc'): ProductRow => ({
  id,
  ctid: `(${block},${offset})`,
  name,
  category,
});

/** What the database finds: every word in the name, or every word in the category, in table order. */
function expected(rows: readonly ProductRow[], words: readonly string[], cap: number): string[] {
  const at = (r: ProductRow) => {
    const [block, offset] = r.ctid.slice(1, -1).split(',').map(Number);
    return (block ?? 0) * 65_536 + (offset ?? 0);
  };
  return rows
    .filter((r) => words.every((w) => r.name.includes(w)) || words.every((w) => r.category.includes(w)))
    .sort((a, b) => at(a) - at(b))
    .slice(0, cap)
    .map((r) => r.id);
}

describe('ProductIndex', () => {
  const rows = [
    row('b', 0, 2, 'steel water bottle', 'kitchen'),
    row('a', 0, 1, 'organic green tea', 'tea & coffee'),
    row('d', 3, 1, 'green mug', 'kitchen'),
    row('c', 1, 7, 'organic mug 2', 'kitchen'),
    row('e', 2, 1, 'lamp', 'organic home'),
  ];
  const index = ProductIndex.of(rows);

  it('finds a part inside a word, every word in one column, in table order', () => {
    expect(index.candidates(['bott'], 101)).toEqual(['b']);
    expect(index.candidates(['organic'], 101)).toEqual(['a', 'c', 'e']);
    expect(index.candidates(['mug', 'organic'], 101)).toEqual(['c']);
    // "organic" in the category and "lamp" in the name: not both in one column
    expect(index.candidates(['organic', 'lamp'], 101)).toEqual([]);
    expect(index.candidates(['kitchen'], 101)).toEqual(['b', 'c', 'd']);
    expect(index.candidates(['2'], 101)).toEqual(['c']);
  });

  it('stops at the cap, keeping the first in table order', () => {
    expect(index.candidates(['e'], 2)).toEqual(['a', 'b']);
  });

  it('answers for words of ASCII letters and digits only', () => {
    expect(ProductIndex.answers(['mug', '2'])).toBe(true);
    expect(ProductIndex.answers(['straße'])).toBe(false);
    expect(ProductIndex.answers([])).toBe(false);
  });

  it('finds what the database would, common words (a scan) and rare ones (postings) alike', () => {
    const parts = ['oak', 'mug', 'lamp', 'green', 'organic', 'steel', 'x', 'pro', 'tea'];
    const categories = ['kitchen', 'garden', 'tea & coffee', 'lamps'];
    let seed = 5;
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
    const many: ProductRow[] = [];
    for (let i = 0; i < 30_000; i++) {
      const name = [pick(parts), pick(parts), random() < 0.01 ? 'zircon' : pick(parts)].join(' ');
      many.push(row(`p${i}`, Math.floor(random() * 5_000), 1 + (i % 40), name, pick(categories)));
    }
    const big = ProductIndex.of(many);
    const searches = [
      ['e'],
      ['o'],
      ['oak'],
      ['zircon'],
      ['zircon', 'mug'],
      ['tea', 'x'],
      ['kitchen'],
      ['amp', 'pro'],
    ];
    for (const words of searches)
      for (const cap of [101, 20_000]) expect(big.candidates(words, cap)).toEqual(expected(many, words, cap));
  });
});

describe('ProductIndexBuilder.finishInSlices', () => {
  it('answers as the index made at once, and lets the event loop turn while 250,000 products finish', async () => {
    // Names with numbers: about as many distinct runs as products, as an import of SKUs gives.
    const rows = Array.from({ length: 250_000 }, (_, i) =>
      row(`p${i}`, Math.floor(i / 40), (i % 40) + 1, `bench product ${i} lamp ${i % 97}`, `cat ${i % 7}`),
    );
    const atOnce = new ProductIndexBuilder();
    const inSlices = new ProductIndexBuilder();
    for (let i = 0; i < rows.length; i += 4000) {
      atOnce.add(rows.slice(i, i + 4000));
      inSlices.add(rows.slice(i, i + 4000));
    }
    let turns = 0;
    let turning = true;
    const turn = () => {
      turns++;
      if (turning) setImmediate(turn);
    };
    setImmediate(turn);
    const sliced = await inSlices.finishInSlices();
    turning = false;
    expect(turns).toBeGreaterThan(5);
    const whole = atOnce.finish();
    for (const words of [['lamp', '12'], ['product', '249999'], ['cat', '3'], ['12345'], ['bench']])
      expect(sliced.candidates(words, 101)).toEqual(whole.candidates(words, 101));
    expect(sliced.candidates(['249999'], 101)).toEqual(['p249999']);
    expect(sliced.candidates(['lamp', '12'], 3)).toEqual(expected(rows, ['lamp', '12'], 3));
  });
});
