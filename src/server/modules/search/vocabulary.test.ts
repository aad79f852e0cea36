import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold, similarity, trigrams, Vocabulary, wordsOf } from './vocabulary';

describe('trigrams and similarity, as pg_trgm counts them', () => {
  it('pads a word with two spaces before and one after', () => {
    expect([...trigrams('cat')].sort()).toEqual(['  c', ' ca', 'at ', 'cat'].sort());
  });
  it('scores the issue’s typos against the right words', () => {
    expect(similarity('samsng', 'samsung')).toBeCloseTo(0.5);
    expect(similarity('cofee', 'coffee')).toBeCloseTo(5 / 8);
    expect(similarity('hedphones', 'headphones')).toBeCloseTo(8 / 13);
    expect(similarity('pixl', 'pixel')).toBeCloseTo(3 / 8);
  });
});

describe('fold and words', () => {
  it('drops accents and case, and splits on anything not a letter or digit', () => {
    expect(wordsOf(fold('Café CRÊPE, Wi-Fi 5G'))).toEqual(['cafe', 'crepe', 'wi', 'fi', '5g']);
  });
});

describe('Vocabulary', () => {
  const words = new Vocabulary([
    'samsung',
    'galaxy',
    'coffee',
    'toffee',
    'headphones',
    'pixel',
    'point',
    'bottle',
  ]);
  it('keeps a known word or part of one, corrects an unknown one, and leaves a stranger alone', () => {
    expect(words.correct(['samsng', 'galaxy', 'bott', 'zzqx'])).toEqual([
      'samsung',
      'galaxy',
      'bott',
      'zzqx',
    ]);
    expect(words.correct(['pixl', 'point'])).toEqual(['pixel', 'point']);
    expect(words.correct(['hedphones'])).toEqual(['headphones']);
  });
  it('suggests at a looser likeness, and nothing when no word is near', () => {
    expect(words.correct(['kofee'])).toEqual(['kofee']);
    expect(words.suggest(['kofee'])).toBe('coffee');
    expect(words.suggest(['zzqx'])).toBeNull();
    expect(words.suggest(['coffee'])).toBeNull();
  });

  it('prefers a word to a code of digits and letters as near (test data names things "Shop 12 664fee")', () => {
    const mall = new Vocabulary(['664fee', 'coffee', 'a55']);
    expect(mall.suggest(['kofee'])).toBe('coffee');
    expect(mall.nearest('a5')?.word).toBe('a55');
  });

  it('rules out only a word of ASCII letters and digits that no mall word contains', () => {
    const mall = new Vocabulary(['xl', 'bottle', 'galaxy', 'stra']);
    expect(mall.rulesOut('xm')).toBe(true);
    expect(mall.rulesOut('zzqx')).toBe(true);
    // in a word, at its start, inside it, or the whole of it: may be in a name
    for (const word of ['xl', 'bott', 'ttl', 'alax', 'stra']) expect(mall.rulesOut(word), word).toBe(false);
    // one character, or letters the database's word split does not keep together: not decided here
    for (const word of ['q', 'straße', 'кофе', 'x-l']) expect(mall.rulesOut(word), word).toBe(false);
  });
});

describe('Vocabulary at the size of a catalogue of codes (issue 31)', () => {
  // The words' trigram lists are read from the rarest only; the answer must be what reading them all gives.
  const bruteNearest = (words: string[], word: string) => {
    const mine = trigrams(word);
    let best: { word: string; similarity: number; share: number } | null = null;
    for (const candidate of [...new Set(words)].filter((w) => w.length >= 2)) {
      const theirs = trigrams(candidate);
      const shared = [...mine].filter((t) => theirs.has(t)).length;
      if (shared === 0 || shared / mine.size < 0.3) continue;
      const sim = shared / (mine.size + theirs.size - shared);
      const unlike = /\d/.test(candidate) !== /\d/.test(word);
      const bestUnlike = best ? /\d/.test(best.word) !== /\d/.test(word) : false;
      const better =
        !best ||
        sim > best.similarity ||
        (sim === best.similarity &&
          (bestUnlike !== unlike
            ? !unlike
            : candidate.length !== best.word.length
              ? candidate.length < best.word.length
              : candidate < best.word));
      if (better) best = { word: candidate, similarity: sim, share: shared / mine.size };
    }
    return best;
  };

  it('finds the same nearest word and the same parts of words as reading every word', () => {
    const letters = fc.constantFrom(...'abcdeklmnos0123');
    const word = fc.string({ unit: letters, minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 60 }), word, (words, typed) => {
        const vocabulary = new Vocabulary(words);
        expect(vocabulary.nearest(typed)).toEqual(bruteNearest(words, typed));
        const inside = words.some((w) => w.length >= 2 && w.includes(typed));
        expect(vocabulary.has(typed)).toBe(inside);
      }),
      { numRuns: 400 },
    );
  });

  it('builds a slice at a time into the same vocabulary', async () => {
    const words = Array.from({ length: 5_000 }, (_, i) => `zq${(i * 7919).toString(36)}`);
    const sliced = await Vocabulary.build(words);
    const whole = new Vocabulary(words);
    expect(sliced.size).toBe(whole.size);
    for (const typed of ['zq1a', 'zqk3m', 'qz', 'samsung'])
      expect(sliced.nearest(typed)).toEqual(whole.nearest(typed));
  });
});
