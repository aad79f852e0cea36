import { describe, expect, it } from 'vitest';
import { withSynonyms } from './repository';
import { searchKey } from './vocabulary';

const synonyms = new Map([
  ['loo', 'toilets'],
  ['atm', 'cash machine'],
  ['cash point', 'atm machine'],
  ['trainers', 'sneakers'],
]);
const search = (q: string) => withSynonyms(searchKey(q).split(' ').filter(Boolean), synonyms).join(' ');

describe('withSynonyms', () => {
  it("replaces a synonym's term by what it stands for, folded as search folds", () => {
    expect(search('Loo')).toBe('toilets');
    expect(search('ATM near the Loo!')).toBe('cash machine near the toilets');
    expect(search('white trainers')).toBe('white sneakers');
  });

  it('takes the longest term first and never replaces a replacement again', () => {
    expect(search('cash point')).toBe('atm machine');
    expect(search('cash')).toBe('cash');
  });

  it('leaves words without a synonym as they are', () => {
    expect(search('coffee')).toBe('coffee');
    expect(withSynonyms(['coffee'], new Map())).toEqual(['coffee']);
  });
});
