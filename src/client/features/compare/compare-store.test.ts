import { describe, expect, it, vi } from 'vitest';
import {
  addItem,
  COMPARE_STORAGE_KEY,
  type CompareStorage,
  createCompareStore,
  hasItem,
  parseCompare,
  removeItem,
  serializeCompare,
  toCompareItem,
} from './compare-store';

/** An in-memory Storage stand-in that records writes. */
function fakeStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  const storage: CompareStorage & { data: Map<string, string> } = {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: vi.fn((key: string, value: string) => {
      data.set(key, value);
    }),
  };
  return storage;
}

/** A list as it was stored before the list kept ids only: whole product snapshots. */
function oldSnapshot(id: string, name = `Product ${id}`) {
  return {
    id,
    name,
    description: 'A thing',
    price: '100.00',
    offerPrice: null,
    shopId: 'shop-1',
    shopName: 'Shop One',
    offer: null,
  };
}

describe('addItem / removeItem / hasItem', () => {
  it('adds at the end', () => {
    expect(addItem(['a'], 'b')).toEqual(['a', 'b']);
  });

  it('adding an id already present does nothing and keeps the same list', () => {
    const list = ['a', 'b'];
    expect(addItem(list, 'a')).toBe(list);
  });

  it('removes by id and keeps the order of the rest', () => {
    expect(removeItem(['a', 'b', 'c'], 'b')).toEqual(['a', 'c']);
  });

  it('removing an absent id returns the same list', () => {
    const list = ['a'];
    expect(removeItem(list, 'x')).toBe(list);
  });

  it('hasItem matches by id', () => {
    expect(hasItem(['a'], 'a')).toBe(true);
    expect(hasItem(['a'], 'b')).toBe(false);
  });

  it('keeps only the id of a product', () => {
    expect(toCompareItem({ id: 'p1' })).toBe('p1');
  });
});

describe('parseCompare / serializeCompare', () => {
  it('stores ids only and round-trips them', () => {
    expect(serializeCompare(['a', 'b'])).toBe('["a","b"]');
    expect(parseCompare(serializeCompare(['a', 'b']))).toEqual(['a', 'b']);
  });

  it('reads nothing, broken JSON and non-arrays as an empty list', () => {
    expect(parseCompare(null)).toEqual([]);
    expect(parseCompare('')).toEqual([]);
    expect(parseCompare('{not json')).toEqual([]);
    expect(parseCompare('{"id":"a"}')).toEqual([]);
  });

  it('reads a list in the old snapshot format as its ids', () => {
    const text = JSON.stringify([oldSnapshot('a'), { ...oldSnapshot('b'), price: 100 }, oldSnapshot('c')]);
    expect(parseCompare(text)).toEqual(['a', 'b', 'c']);
  });

  it('drops entries without a usable id and duplicates, keeping the first', () => {
    const text = JSON.stringify([
      'a',
      '',
      7,
      null,
      ['b'],
      { id: '' },
      { id: 42 },
      { name: 'no id' },
      'x'.repeat(65),
      oldSnapshot('a', 'Second copy'),
      'c',
      { id: 'd' },
    ]);
    expect(parseCompare(text)).toEqual(['a', 'c', 'd']);
  });
});

describe('createCompareStore', () => {
  it('starts from what the storage holds', () => {
    const storage = fakeStorage({ [COMPARE_STORAGE_KEY]: '["a","b"]' });
    expect(createCompareStore(storage).getSnapshot()).toEqual(['a', 'b']);
    expect(storage.setItem).not.toHaveBeenCalled();
  });

  it('rewrites a list stored in the old format as ids, so no old prices stay behind', () => {
    const storage = fakeStorage({
      [COMPARE_STORAGE_KEY]: JSON.stringify([oldSnapshot('a'), oldSnapshot('b')]),
    });
    expect(createCompareStore(storage).getSnapshot()).toEqual(['a', 'b']);
    expect(storage.data.get(COMPARE_STORAGE_KEY)).toBe('["a","b"]');
  });

  it('starts empty without storage or when reading throws', () => {
    expect(createCompareStore(null).getSnapshot()).toEqual([]);
    const throwing: CompareStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => undefined,
    };
    expect(createCompareStore(throwing).getSnapshot()).toEqual([]);
  });

  it('writes every change and notifies subscribers; a duplicate add changes nothing', () => {
    const storage = fakeStorage();
    const store = createCompareStore(storage);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);

    store.add('a');
    store.add('b');
    const snapshot = store.getSnapshot();
    store.add('a');
    expect(store.getSnapshot()).toBe(snapshot);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(storage.getItem(COMPARE_STORAGE_KEY)).toBe('["a","b"]');

    store.remove('a');
    expect(storage.getItem(COMPARE_STORAGE_KEY)).toBe('["b"]');
    expect(listener).toHaveBeenCalledTimes(3);

    unsubscribe();
    store.clear();
    expect(listener).toHaveBeenCalledTimes(3);
    expect(storage.getItem(COMPARE_STORAGE_KEY)).toBe('[]');
  });

  it('a new store over the same storage sees the list (a reload)', () => {
    const storage = fakeStorage();
    createCompareStore(storage).add('a');
    expect(createCompareStore(storage).getSnapshot()).toEqual(['a']);
  });

  it('keeps working in memory when writing fails', () => {
    const storage: CompareStorage = {
      getItem: () => JSON.stringify([oldSnapshot('a')]),
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const store = createCompareStore(storage);
    store.add('b');
    expect(store.getSnapshot()).toEqual(['a', 'b']);
  });
});
