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
