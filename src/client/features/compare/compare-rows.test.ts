import { describe, expect, it } from 'vitest';
import type { Product } from '../../../shared/product';
import { ApiError } from '../../lib/api';
import {
  type CompareRow,
  compareRows,
  currentPrice,
  lowestPriceIds,
  type ProductAnswer,
} from './compare-rows';

function product(id: string, overrides: Partial<Product> = {}): Product {
  return {
    id,
    name: `Product ${id}`,
    description: 'A thing',
    price: '100.00',
    category: 'Things',
    shopId: 'shop-1',
    shopName: 'Shop One',
    offerId: null,
    offer: null,
    offerPrice: null,
    externalCode: null,
    image: null,
    shopLogo: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

const offer = (active: boolean, discount = 25) => ({
  id: 'o1',
  title: 'Sale',
  discount,
  endDate: '2026-12-31',
  active,
});

const loaded = (data: Product): ProductAnswer => ({ status: 'success', data, error: null });
const pending: ProductAnswer = { status: 'pending', data: undefined, error: null };
const failed = (status: number, data?: Product): ProductAnswer => ({
  status: 'error',
  data,
  error: new ApiError(status === 404 ? 'Product not found' : 'Something went wrong. Please try again.', {
    status,
    code: status === 404 ? 'NOT_FOUND' : 'INTERNAL',
  }),
});

const lowestOf = (rows: CompareRow[]) =>
  rows.flatMap((row) => (row.kind === 'product' && row.lowest ? [row.id] : []));

describe('currentPrice', () => {
  it('is the discounted price while the offer is active, else the price', () => {
    expect(currentPrice(product('a', { price: '1499.00', offer: offer(true), offerPrice: '1124.25' }))).toBe(
      '1124.25',
    );
    expect(currentPrice(product('a', { price: '1499.00', offer: offer(false), offerPrice: null }))).toBe(
      '1499.00',
    );
    expect(currentPrice(product('a', { price: '1499.00' }))).toBe('1499.00');
  });

  it('works the discount out itself if an active offer comes without its price', () => {
    expect(currentPrice(product('a', { price: '1499.00', offer: offer(true), offerPrice: null }))).toBe(
      '1124.25',
    );
  });
});

describe('lowestPriceIds', () => {
  it('marks the lowest current price, ties included, comparing in cents not as text', () => {
    expect(
      lowestPriceIds([
        product('a', { price: '120.00' }),
        product('b', { price: '150.00', offer: offer(true, 34), offerPrice: '99.00' }),
        product('c', { price: '99.00' }),
        product('d', { price: '1000.00' }),
        product('e', { price: '9.00', offer: offer(false), offerPrice: null }),
      ]),
    ).toEqual(new Set(['e']));
    expect(
      lowestPriceIds([
        product('a', { price: '120.00' }),
        product('b', { price: '150.00', offer: offer(true, 34), offerPrice: '99.00' }),
        product('c', { price: '99.00' }),
      ]),
    ).toEqual(new Set(['b', 'c']));
  });

  it('marks nothing for fewer than two products', () => {
    expect(lowestPriceIds([])).toEqual(new Set());
    expect(lowestPriceIds([product('a')])).toEqual(new Set());
  });
});

describe('compareRows', () => {
  it('shows each product as the server has it now, in the order of the list', () => {
    const rows = compareRows(
      ['a', 'b'],
      [loaded(product('a', { price: '2500.00' })), loaded(product('b', { price: '1800.00' }))],
    );
    expect(rows.map((row) => row.kind)).toEqual(['product', 'product']);
    expect(lowestOf(rows)).toEqual(['b']);
  });

  it('a deleted product (404) is gone, keeps its name when it was read before, and is left out of Lowest price', () => {
    const before = product('b', { price: '1.00', name: 'Old Lamp' });
    const rows = compareRows(
      ['a', 'b', 'c', 'd'],
      [
        loaded(product('a', { price: '2500.00' })),
        failed(404, before),
        loaded(product('c', { price: '1800.00' })),
        failed(404),
      ],
    );
    expect(rows[1]).toEqual({ kind: 'gone', id: 'b', name: 'Old Lamp' });
    expect(rows[3]).toEqual({ kind: 'gone', id: 'd', name: null });
    expect(lowestOf(rows)).toEqual(['c']);
  });

  it('one product left beside deleted ones has nothing to be lowest against', () => {
    expect(lowestOf(compareRows(['a', 'b'], [loaded(product('a')), failed(404)]))).toEqual([]);
  });

  it('another failure is an error with the message, worth trying again', () => {
    const rows = compareRows(['a', 'b'], [loaded(product('a')), failed(503, product('b', { name: 'Lamp' }))]);
    expect(rows[1]).toEqual({
      kind: 'error',
      id: 'b',
      name: 'Lamp',
      message: 'Something went wrong. Please try again.',
    });
    const network = compareRows(['a'], [{ status: 'error', data: undefined, error: new TypeError('fetch') }]);
    expect(network[0]).toEqual({
      kind: 'error',
      id: 'a',
      name: null,
      message: 'Something went wrong. Please try again.',
    });
  });

  it('marks no Lowest price while a product is loading or failed: it might be the cheapest', () => {
    const cheap = loaded(product('a', { price: '1.00' }));
    const dear = loaded(product('b', { price: '2.00' }));
    expect(lowestOf(compareRows(['a', 'b', 'c'], [cheap, dear, pending]))).toEqual([]);
    expect(lowestOf(compareRows(['a', 'b', 'c'], [cheap, dear, failed(500)]))).toEqual([]);
    expect(compareRows(['a', 'b', 'c'], [cheap, dear, pending])[2]).toEqual({ kind: 'loading', id: 'c' });
    expect(compareRows(['a'], [])[0]).toEqual({ kind: 'loading', id: 'a' });
  });

  it('an empty list has no rows', () => {
    expect(compareRows([], [])).toEqual([]);
  });
});
