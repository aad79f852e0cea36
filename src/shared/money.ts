// Every piece of price arithmetic of the mall, in one place. Prices travel as exact decimal strings
// ("1299.00"); arithmetic happens in whole cents (safe integers), never on binary fractions.

/** Prices travel as JSON numbers with at most 2 decimals and are stored as numeric(12,2). */
export const PRICE_MAX = 99_999_999.99;

/** True when `value` is written with at most two decimals (12, 12.5, 12.50 — not 12.345). */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Number.isFinite(value) && Math.round(value * 100) / 100 === value;
}

/** Decimal digits, optionally a point and more digits: how a price or a discount is written out. */
const DECIMAL_TEXT = /^\d+(?:\.\d+)?$/;

/**
 * The number a price or discount written as text stands for (an import file's cell; the forms take
 * numbers): plain decimal digits, optionally a point and more ("24.90", "7", "20"). Anything else is
 * NaN, which the forms' schemas refuse with their own message: a sign, an exponent, a space, a point
 * without digits on both sides, another base ("+5", "1e3", " 5", ".5", "5.", "0x10"), all of which
 * Number() would read as a number. How large and how many decimals it may have is the schema's to say.
 */
export function numberFromText(text: string): number {
  if (!DECIMAL_TEXT.test(text)) return Number.NaN;
  // Past two decimals a number (a double) rounds silently ("19.999999999999999999" is 20): then the
  // value read keeps a third decimal, so the schema refuses it as the form does "12.345".
  const [whole, fraction = ''] = text.split('.');
  const decimals = fraction.replace(/0+$/, '');
  return decimals.length > 2 ? Number(`${whole}.${decimals.slice(0, 2)}5`) : Number(text);
}

/** The exact decimal string for the database: 12.5 → "12.50". */
export function toPriceString(value: number): string {
  return value.toFixed(2);
}

// numeric(12,2) holds at most 10 whole digits; their cents times 100 (a discount) stay safe integers.
const PRICE_TEXT = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/** True for an exact price string: "1299.00", "7", "0.5". No sign, no exponent, no separators. */
export function isPriceString(price: string): boolean {
  return PRICE_TEXT.test(price);
}

/** "1299.05" → 129905. Throws a RangeError for anything that is not an exact price string. */
export function toCents(price: string): number {
  const match = PRICE_TEXT.exec(price);
  if (!match) throw new RangeError(`Not a price: ${JSON.stringify(price)}`);
  const [, whole = '0', fraction = ''] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 129905 → "1299.05". Whole, non-negative cents only. */
export function fromCents(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Not a number of cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * The price after a whole-percent discount, rounded half up to the cent. "100.00", 15 → "85.00";
 * "0.05", 50 → "0.03".
 */
export function discountedPrice(price: string, discountPercent: number): string {
  const cents = toCents(price);
  return fromCents(Math.floor((cents * (100 - discountPercent) + 50) / 100));
}

/** Negative when `a` is cheaper than `b`, 0 when equal to the cent ("7" and "7.00"), else positive. */
export function comparePrices(a: string, b: string): number {
  return Math.sign(toCents(a) - toCents(b));
}

/** The lowest of `prices` as given (the first of equal ones); null for none. */
export function lowestPrice(prices: readonly string[]): string | null {
  let lowest: string | null = null;
  for (const price of prices) {
    if (lowest === null || comparePrices(price, lowest) < 0) lowest = price;
  }
  return lowest;
}

/** "42990.00" → "42,990.00": groups of three whole digits, always two decimals. */
function grouped(price: string): string {
  const [whole = '0', fraction = '00'] = fromCents(toCents(price)).split('.');
  return `${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${fraction}`;
}

/** A price as people read it, or the text as it came when it is not a price (never throws in a render). */
function format(symbol: string, price: string): string {
  return isPriceString(price) ? `${symbol}${grouped(price)}` : `${symbol}${price}`;
}

/** The admin area's price: "8499" → "$8,499.00". */
export function formatDollars(price: string): string {
  return format('$', price);
}

/** The shopper area's price: "42990.00" → "₹42,990.00". */
export function formatRupees(price: string): string {
  return format('₹', price);
}
