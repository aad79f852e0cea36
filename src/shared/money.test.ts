import { describe, expect, it } from 'vitest';
import {
  comparePrices,
  discountedPrice,
  formatDollars,
  formatRupees,
  fromCents,
  hasAtMostTwoDecimals,
  isPriceString,
  lowestPrice,
  toCents,
  toPriceString,
} from './money';

describe('toCents / fromCents', () => {
  it('reads exact price strings as whole cents', () => {
    expect(toCents('1299.05')).toBe(129905);
    expect(toCents('1299.00')).toBe(129900);
    expect(toCents('0.10')).toBe(10);
    expect(toCents('0.5')).toBe(50);
    expect(toCents('7')).toBe(700);
    expect(toCents('0.00')).toBe(0);
    expect(toCents('9999999999.99')).toBe(999999999999);
  });

  it('refuses anything that is not an exact price', () => {
    for (const text of [
      '',
      '-1.00',
      '1e3',
      '1,299.00',
      ' 12.00',
      '12.345',
      '.50',
      '12.',
      'NaN',
      '12345678901.00',
    ]) {
      expect(isPriceString(text), text).toBe(false);
      expect(() => toCents(text), text).toThrow(RangeError);
    }
  });

  it('writes cents back with two decimals', () => {
    expect(fromCents(129905)).toBe('1299.05');
    expect(fromCents(7)).toBe('0.07');
    expect(fromCents(0)).toBe('0.00');
    expect(() => fromCents(1.5)).toThrow(RangeError);
    expect(() => fromCents(-1)).toThrow(RangeError);
  });

  it('no binary fraction creeps in where floats would drift', () => {
    // 0.1 + 0.2 !== 0.3 in floating point; in cents it is exact.
    expect(fromCents(toCents('0.10') + toCents('0.20'))).toBe('0.30');
    expect(toCents('1.15')).toBe(115); // 1.15 * 100 === 114.99999999999999
  });
});

describe('discountedPrice', () => {
  it('takes a whole percent off, rounding half up to the cent', () => {
    expect(discountedPrice('100.00', 15)).toBe('85.00');
    expect(discountedPrice('1499.00', 25)).toBe('1124.25');
    expect(discountedPrice('1299.00', 15)).toBe('1104.15');
    expect(discountedPrice('0.05', 50)).toBe('0.03'); // 2.5 cents → 3
    expect(discountedPrice('0.01', 49)).toBe('0.01'); // 0.51 cents → 1
    expect(discountedPrice('0.01', 51)).toBe('0.00'); // 0.49 cents → 0
    expect(discountedPrice('19.99', 100)).toBe('0.00');
    expect(discountedPrice('7', 10)).toBe('6.30');
  });

  it('stays exact at the largest stored price', () => {
    expect(discountedPrice('9999999999.99', 1)).toBe('9899999999.99');
  });
});

describe('comparePrices / lowestPrice', () => {
  it('compares to the cent, whatever the notation', () => {
    expect(comparePrices('99.99', '100.00')).toBe(-1);
    expect(comparePrices('100.00', '99.99')).toBe(1);
    expect(comparePrices('7', '7.00')).toBe(0);
    // As text "9.00" > "10.00"; as prices it is not.
    expect(comparePrices('9.00', '10.00')).toBe(-1);
  });

  it('finds the lowest, the first of equals, and null for none', () => {
    expect(lowestPrice(['120.00', '99.99', '1000.00', '100'])).toBe('99.99');
    expect(lowestPrice(['5.00', '5', '6.00'])).toBe('5.00');
    expect(lowestPrice(['9.00', '10.00'])).toBe('9.00');
    expect(lowestPrice([])).toBeNull();
  });
});

describe('formatRupees / formatDollars', () => {
  it('shows the symbol, thousands separators and two decimals', () => {
    expect(formatRupees('42990.00')).toBe('₹42,990.00');
    expect(formatDollars('8499.00')).toBe('$8,499.00');
    expect(formatRupees('1124.25')).toBe('₹1,124.25');
    expect(formatRupees('999.99')).toBe('₹999.99');
    expect(formatRupees('0.5')).toBe('₹0.50');
    expect(formatDollars('7')).toBe('$7.00');
    expect(formatDollars('1000')).toBe('$1,000.00');
    expect(formatDollars('100000.00')).toBe('$100,000.00');
    expect(formatRupees('9999999999.99')).toBe('₹9,999,999,999.99');
  });

  it('never throws on text that is not a price', () => {
    expect(formatRupees('')).toBe('₹');
    expect(formatDollars('n/a')).toBe('$n/a');
  });
});

describe('hasAtMostTwoDecimals / toPriceString', () => {
  it('accepts whole and two-decimal numbers only', () => {
    expect(hasAtMostTwoDecimals(12)).toBe(true);
    expect(hasAtMostTwoDecimals(12.5)).toBe(true);
    expect(hasAtMostTwoDecimals(1299.99)).toBe(true);
    expect(hasAtMostTwoDecimals(12.345)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.NaN)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('writes the database string', () => {
    expect(toPriceString(12.5)).toBe('12.50');
    expect(toPriceString(1299)).toBe('1299.00');
  });
});
