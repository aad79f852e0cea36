// What the compare screen shows for each id of the list, from the server's current answer for it.
// Pure: the screen reads the products (one query per id) and hands the answers in.
import { comparePrices, discountedPrice, lowestPrice } from '../../../shared/money';
import type { Product } from '../../../shared/product';
import { ApiError, errorMessage } from '../../lib/api';

/** The parts of a TanStack Query result the rows need. */
export interface ProductAnswer {
  status: 'pending' | 'success' | 'error';
  /** On a failed refetch, the product as it was last read. */
  data: Product | undefined;
  error: unknown;
}

export type CompareRow =
  /** Not read yet. */
  | { kind: 'loading'; id: string }
  /** As the server has it now; `lowest` marks the cheapest of the list (ties included). */
  | { kind: 'product'; id: string; product: Product; lowest: boolean }
  /** The server no longer has it (404). `name` when it was read earlier on this page. */
  | { kind: 'gone'; id: string; name: string | null }
  /** Reading it failed for another reason (network, 5xx): worth trying again. */
  | { kind: 'error'; id: string; name: string | null; message: string };

/** The price the shopper pays today: the discounted price while the product's offer is active. */
export function currentPrice(product: Pick<Product, 'price' | 'offer' | 'offerPrice'>): string {
  if (!product.offer?.active) return product.price;
  // The server sends the discounted price with an active offer; work it out the same way otherwise.
  return product.offerPrice ?? discountedPrice(product.price, product.offer.discount);
}

/**
 * The ids of the products with the lowest current price (all of them on a tie). Empty with fewer
 * than two products: there is nothing to compare against.
 */
export function lowestPriceIds(products: readonly Product[]): Set<string> {
  if (products.length < 2) return new Set();
  const lowest = lowestPrice(products.map(currentPrice));
  if (lowest === null) return new Set();
  return new Set(
    products.filter((product) => comparePrices(currentPrice(product), lowest) === 0).map((p) => p.id),
  );
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * One row per id, in the list's order. "Lowest price" is only marked once every product has been
 * read (or is known to be gone): a product still loading or failing might be the cheapest.
 */
export function compareRows(ids: readonly string[], answers: readonly ProductAnswer[]): CompareRow[] {
  const rows = ids.map((id, index): CompareRow => {
    const answer = answers[index];
    if (!answer || answer.status === 'pending') return { kind: 'loading', id };
    if (answer.status === 'error') {
      const name = answer.data?.name ?? null;
      return isNotFound(answer.error)
        ? { kind: 'gone', id, name }
        : { kind: 'error', id, name, message: errorMessage(answer.error) };
    }
    if (!answer.data) return { kind: 'loading', id };
    return { kind: 'product', id, product: answer.data, lowest: false };
  });

  const settled = rows.every((row) => row.kind === 'product' || row.kind === 'gone');
  if (!settled) return rows;
  const lowest = lowestPriceIds(rows.flatMap((row) => (row.kind === 'product' ? [row.product] : [])));
  return rows.map((row) => (row.kind === 'product' ? { ...row, lowest: lowest.has(row.product.id) } : row));
}
