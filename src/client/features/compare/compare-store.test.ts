import { describe, expect, it, vi } from 'vitest';
import type { Product } from '../../../shared/product';
import {
  addItem,
  COMPARE_STORAGE_KEY,
  type CompareItem,
  type CompareStorage,
  createCompareStore,
  effectivePrice,
  hasItem,
  lowestPriceIds,
  parseCompare,
  removeItem,
  serializeCompare,
  toCompareItem,
} from './compare-store';

function item(id: string, overrides: Partial<CompareItem> = {}): CompareItem {
  return {
    id,
    name: `Product ${id}`,
    description: 'A thing',
    price: '100.00',
    offerPrice: null,
    shopId: 'shop-1',
    shopName: 'Shop One',
    offer: null,
    ...overrides,
  };
}

/** An in-memory Storage stand-in that records writes. */
function fakeStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  const storage: CompareStorage & { data: Map<string, string> } = {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => {
      data.set(key, value);
    },
  };
  return storage;
}

describe('addItem / removeItem', () => {
  it('adds at the end', () => {
    expect(addItem([item('a')], item('b')).map((i) => i.id)).toEqual(['a', 'b']);
  });

  it('adding a product already present (same id) does nothing and keeps the same list', () => {
    const list = [item('a'), item('b')];
    const result = addItem(list, item('a', { name: 'Changed' }));
    expect(result).toBe(list);
    expect(result[0]?.name).toBe('Product a');
  });

  it('removes by id and keeps the order of the rest', () => {
    expect(removeItem([item('a'), item('b'), item('c')], 'b').map((i) => i.id)).toEqual(['a', 'c']);
  });

  it('removing an absent id returns the same list', () => {
    const list = [item('a')];
    expect(removeItem(list, 'x')).toBe(list);
  });

  it('hasItem matches by id', () => {
    expect(hasItem([item('a')], 'a')).toBe(true);
    expect(hasItem([item('a')], 'b')).toBe(false);
  });
});

describe('parseCompare / serializeCompare', () => {
  it('round-trips a list', () => {
    const list = [
      item('a'),
      item('b', {
        offerPrice: '75.00',
        offer: { id: 'o1', title: 'Sale', discount: 25, endDate: '2026-12-31', active: true },
      }),
    ];
    expect(parseCompare(serializeCompare(list))).toEqual(list);
  });

  it('reads nothing, broken JSON and non-arrays as an empty list', () => {
    expect(parseCompare(null)).toEqual([]);
    expect(parseCompare('')).toEqual([]);
    expect(parseCompare('{not json')).toEqual([]);
    expect(parseCompare('{"id":"a"}')).toEqual([]);
  });

  it('drops invalid entries and duplicates, and strips unknown fields', () => {
    const text = JSON.stringify([
      { ...item('a'), extra: 'dropped' },
      { ...item('b'), price: 100 },
      { ...item('c'), price: '1e3' },
      { ...item('d'), offer: { id: 'o' } },
      { ...item('e'), id: '' },
      'nonsense',
      null,
      item('a', { name: 'Second copy' }),
      item('f'),
    ]);
    const parsed = parseCompare(text);
    expect(parsed.map((i) => i.id)).toEqual(['a', 'f']);
    expect(parsed[0]).toEqual(item('a'));
  });
});

describe('prices', () => {
  it('the effective price is the offer price when there is one', () => {
    expect(effectivePrice({ price: '1299.00', offerPrice: '1104.15' })).toBe('1104.15');
    expect(effectivePrice({ price: '1299.00', offerPrice: null })).toBe('1299.00');
  });

  it('marks the lowest effective price, ties included, and nothing for fewer than two products', () => {
    expect(lowestPriceIds([item('a')])).toEqual(new Set());
    expect(
      lowestPriceIds([
        item('a', { price: '120.00' }),
        item('b', { price: '150.00', offerPrice: '99.99' }),
        item('c', { price: '99.99' }),
        item('d', { price: '100.00' }),
      ]),
    ).toEqual(new Set(['b', 'c']));
  });
});

describe('toCompareItem', () => {
  it('keeps the snapshot fields of a product', () => {
    const product: Product = {
      id: 'p1',
      name: 'Linen Shirt',
      description: 'Breathable',
      price: '1499.00',
      category: 'Shirts',
      shopId: 's1',
      shopName: 'Threadline Studio',
      offerId: 'o1',
      offer: { id: 'o1', title: 'Monsoon Sale', discount: 25, endDate: '2026-12-01', active: true },
      offerPrice: '1124.25',
      createdAt: '2026-11-01T00:00:00.000Z',
    };
    expect(toCompareItem(product)).toEqual({
      id: 'p1',
      name: 'Linen Shirt',
      description: 'Breathable',
      price: '1499.00',
      offerPrice: '1124.25',
      shopId: 's1',
      shopName: 'Threadline Studio',
      offer: { id: 'o1', title: 'Monsoon Sale', discount: 25, endDate: '2026-12-01', active: true },
    });
  });
});

describe('createCompareStore', () => {
  it('starts from what the storage holds', () => {
    const storage = fakeStorage({ [COMPARE_STORAGE_KEY]: serializeCompare([item('a')]) });
    expect(
      createCompareStore(storage)
        .getSnapshot()
        .map((i) => i.id),
    ).toEqual(['a']);
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

    store.add(item('a'));
    store.add(item('b'));
    const snapshot = store.getSnapshot();
    store.add(item('a'));
    expect(store.getSnapshot()).toBe(snapshot);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(parseCompare(storage.getItem(COMPARE_STORAGE_KEY)).map((i) => i.id)).toEqual(['a', 'b']);

    store.remove('a');
    expect(parseCompare(storage.getItem(COMPARE_STORAGE_KEY)).map((i) => i.id)).toEqual(['b']);
    expect(listener).toHaveBeenCalledTimes(3);

    unsubscribe();
    store.clear();
    expect(listener).toHaveBeenCalledTimes(3);
    expect(storage.getItem(COMPARE_STORAGE_KEY)).toBe('[]');
  });

  it('a new store over the same storage sees the list (a reload)', () => {
    const storage = fakeStorage();
    createCompareStore(storage).add(item('a'));
    expect(
      createCompareStore(storage)
        .getSnapshot()
        .map((i) => i.id),
    ).toEqual(['a']);
  });

  it('keeps working in memory when writing fails', () => {
    const storage: CompareStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const store = createCompareStore(storage);
    store.add(item('a'));
    expect(store.getSnapshot().map((i) => i.id)).toEqual(['a']);
  });
});
