/** Prices travel as JSON numbers with at most 2 decimals and are stored as numeric(12,2). */
export const PRICE_MAX = 99_999_999.99;

/** True when `value` is written with at most two decimals (12, 12.5, 12.50 — not 12.345). */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Number.isFinite(value) && Math.round(value * 100) / 100 === value;
}

/** The exact decimal string for the database: 12.5 → "12.50". */
export function toPriceString(value: number): string {
  return value.toFixed(2);
}

/**
 * The price after a whole-percent discount, rounded half up to the cent, computed in integer cents
 * so no binary fraction creeps in. "100.00", 15 → "85.00".
 */
export function discountedPrice(price: string, discountPercent: number): string {
  const [whole = '0', fraction = ''] = price.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  const discounted = Math.floor((cents * (100 - discountPercent) + 50) / 100);
  return `${Math.floor(discounted / 100)}.${String(discounted % 100).padStart(2, '0')}`;
}

export function formatDollars(price: string): string {
  return `$${price}`;
}

export function formatRupees(price: string): string {
  return `₹${price}`;
}
