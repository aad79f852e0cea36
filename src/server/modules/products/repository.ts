import { and, asc, count, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { discountedPrice, toPriceString } from '../../../shared/money';
import type {
  Product,
  ProductInput,
  ProductListQuery,
  ProductPage,
  ProductPatch,
} from '../../../shared/product';
import { SEARCH_COUNT_CAP } from '../../../shared/text';
import type { Db } from '../../db/client';
import { offers, products, shops } from '../../db/schema';
import { HttpError } from '../../errors';
import {
  containsPattern,
  escapeLike,
  FOREIGN_KEY_VIOLATION,
  pgError,
  UNIQUE_VIOLATION,
} from '../../lib/db-errors';
import { type Executor, readsOn, type Snapshot, type WriteTx } from '../../write-path';
import { approvedOnly } from '../offers/repository';
import { activeOn } from '../offers/rules';

export const productNotFound = () => new HttpError(404, 'NOT_FOUND', 'Product not found');
export const OFFER_OF_ANOTHER_SHOP = "This offer is not one of the product's shop";
export const PRODUCT_CODE_TAKEN = 'Another product of this shop already has this code';

/** A product's offer must be one of its own shop's (the composite foreign key backs this up). */
export function productWriteError(error: unknown): HttpError | null {
  const cause = pgError(error);
  if (cause?.code === UNIQUE_VIOLATION && cause.constraint === 'products_shop_external_code_key') {
    return new HttpError(409, 'DUPLICATE', PRODUCT_CODE_TAKEN, { externalCode: PRODUCT_CODE_TAKEN });
  }
  if (cause?.code !== FOREIGN_KEY_VIOLATION) return null;
  if (cause.constraint === 'products_offer_same_shop_fk') {
    return new HttpError(400, 'VALIDATION', OFFER_OF_ANOTHER_SHOP, { offerId: OFFER_OF_ANOTHER_SHOP });
  }
  return new HttpError(400, 'VALIDATION', 'Shop is required', { shopId: 'Shop is required' });
}

function selectProducts(db: Executor, today: string) {
  return (
    db
      .select({
        id: products.id,
        name: products.name,
        description: products.description,
        price: products.price,
        category: products.category,
        shopId: products.shopId,
        shopName: shops.name,
        offerId: products.offerId,
        offerTitle: offers.title,
        offerDiscount: offers.discount,
        offerEndDate: offers.endDate,
        offerActive: sql<boolean | null>`(${activeOn(today)})`,
        externalCode: products.externalCode,
        image: products.image,
        shopLogo: shops.logoImage,
        createdAt: products.createdAt,
      })
      .from(products)
      .innerJoin(shops, eq(shops.id, products.shopId))
      // Only an approved offer counts for shoppers (docs/decisions/015): a product keeps its pending
      // offer's id for its shop's managers, but shows no offer until an admin approves it.
      .leftJoin(offers, and(eq(offers.id, products.offerId), approvedOnly))
  );
}

/** The product's offer is one shoppers see. */
const onApprovedOffer = sql`exists (select 1 from ${offers} where ${offers.id} = ${products.offerId} and ${offers.approved})`;

type ProductRow = Awaited<ReturnType<ReturnType<typeof selectProducts>['execute']>>[number];

function toProduct(row: ProductRow): Product {
  const offer =
    row.offerId && row.offerTitle !== null && row.offerDiscount !== null && row.offerEndDate !== null
      ? {
          id: row.offerId,
          title: row.offerTitle,
          discount: row.offerDiscount,
          endDate: row.offerEndDate,
          active: row.offerActive === true,
        }
      : null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: row.price,
    category: row.category,
    shopId: row.shopId,
    shopName: row.shopName,
    offerId: row.offerId,
    offer,
    offerPrice: offer?.active ? discountedPrice(row.price, offer.discount) : null,
    externalCode: row.externalCode,
    image: row.image,
    shopLogo: row.shopLogo,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A product as the audit log shows it. */
export function productSnapshot(product: Product): Snapshot {
  const { name, description, price, category, shopName, offer, externalCode } = product;
  return { name, description, price, category, shop: shopName, offer: offer?.title ?? null, externalCode };
}

/** Lists' order: by name in any case, then exactly, then id (index products_name_order_idx). */
const NAME_ORDER = [asc(sql`lower(${products.name})`), asc(products.name), asc(products.id)];

/**
 * "Name contains `text`", any case. As lower(name) LIKE, not name ILIKE: an index-only scan of
 * products_name_order_idx tests it on the entry's own lower(name), and LIKE on lowered text is cheaper
 * per row than ILIKE; products_name_lower_trgm_idx serves it for rare terms (migration 0003).
 */
function nameContains(text: string): SQL {
  return sql`lower(${products.name}) like lower(${containsPattern(text)})`;
}

/**
 * The first `limit` matches in any order (the trigram index for a rare term, the table for a common
 * one, stopping at `limit`): how many there are, up to `limit`, and the ids of the page at
 * `offset`/`pageSize` in name order among them — the search's page whenever fewer than `limit` match.
 * One scan instead of two (a page query and a count query each walking the trigram index).
 */
async function firstMatches(
  db: Executor,
  where: SQL | undefined,
  limit: number,
  pageSize: number,
  offset: number,
): Promise<{ n: number; ids: string[] }> {
  const { rows } = await db.execute<{ n: number; ids: string[] }>(sql`
    with matches as materialized (
      select ${products.id} as id, lower(${products.name}) as lower_name, ${products.name} as name
        from ${products} where ${where} limit ${limit})
    select (select count(*) from matches)::int as n,
           array(select id from matches order by lower_name, name, id limit ${pageSize} offset ${offset})::text[] as ids`);
  return { n: rows[0]?.n ?? 0, ids: rows[0]?.ids ?? [] };
}

/** Prices travel as numbers with at most 2 decimals and are stored as exact strings. */
function toRow<T extends { price?: number }>(values: T): Omit<T, 'price'> & { price?: string } {
  const { price, ...rest } = values;
  return { ...rest, ...(price === undefined ? {} : { price: toPriceString(price) }) };
}

/** The list's filters (the export takes the same ones); undefined: every product. */
export function productFilters(
  query: Pick<z.output<typeof ProductListQuery>, 'q' | 'shopId' | 'category' | 'onOffer'>,
): SQL | undefined {
  const { q, shopId, category, onOffer } = query;
  const filters: SQL[] = [];
  if (q) filters.push(nameContains(q));
  if (shopId) filters.push(eq(products.shopId, shopId));
  if (category) filters.push(ilike(products.category, escapeLike(category)));
  if (onOffer === 'true') filters.push(onApprovedOffer);
  if (onOffer === 'false') filters.push(sql`not ${onApprovedOffer}`);
  return filters.length > 0 ? and(...filters) : undefined;
}

/** The products' queries. Reads say whether a product's offer is active on the mall's `today`. */
export function productRepository(db: Db) {
  async function find(id: string, today: string, tx: Executor = db): Promise<Product | null> {
    const [row] = await selectProducts(tx, today).where(eq(products.id, id));
    return row ? toProduct(row) : null;
  }

  /** The product as it is, its row locked until the write's transaction ends: one query, not two. */
  async function lockAndRead(tx: WriteTx, id: string, today: string): Promise<Product | null> {
    const [row] = await selectProducts(tx, today).where(eq(products.id, id)).for('update', { of: products });
    return row ? toProduct(row) : null;
  }

  return {
    find,

    /** The shop a product belongs to, or null when there is no such product. */
    async shopOf(tx: Executor, id: string): Promise<string | null> {
      const [row] = await tx.select({ shopId: products.shopId }).from(products).where(eq(products.id, id));
      return row?.shopId ?? null;
    },

    async get(id: string, today: string, tx: Executor = db): Promise<Product> {
      const product = await find(id, today, tx);
      if (!product) throw productNotFound();
      return product;
    },

    async list(
      query: z.output<typeof ProductListQuery>,
      today: string,
      tx: Executor = db,
    ): Promise<z.output<typeof ProductPage>> {
      const { q, page, pageSize } = query;
      const where = productFilters(query);
      const offset = (page - 1) * pageSize;
      // The page's ids in name order (an index-only scan), then the joins for those rows only: either
      // as a subquery, or ids a search has already found.
      const pageIds = () =>
        tx
          .select({ id: products.id })
          .from(products)
          .where(where)
          .orderBy(...NAME_ORDER)
          .limit(pageSize)
          .offset(offset);
      const rowsOf = async (ids: string[] | ReturnType<typeof pageIds>) =>
        Array.isArray(ids) && ids.length === 0
          ? []
          : (
              await selectProducts(tx, today)
                .where(inArray(products.id, ids))
                .orderBy(...NAME_ORDER)
            ).map(toProduct);

      if (!q) {
        const [items, [total]] = await readsOn(tx, db, [
          () => rowsOf(pageIds()),
          () => tx.select({ n: count() }).from(products).where(where),
        ] as const);
        return { items, total: total?.n ?? 0, page, pageSize };
      }
      // A name search: one scan counts the matches up to the cap and, when that is all of them, gives
      // the page too. More than the cap: a common term, found early in name order by pageIds.
      const found = await firstMatches(tx, where, SEARCH_COUNT_CAP + 1, pageSize, offset);
      if (found.n > SEARCH_COUNT_CAP) {
        const items = await rowsOf(pageIds());
        return { items, total: SEARCH_COUNT_CAP, totalCapped: true, page, pageSize };
      }
      return { items: await rowsOf(found.ids), total: found.n, page, pageSize };
    },

    async insert(tx: WriteTx, values: z.output<typeof ProductInput>, today: string): Promise<Product> {
      const [row] = await tx
        .insert(products)
        .values({ ...values, price: toPriceString(values.price) })
        .returning({ id: products.id });
      const product = row && (await find(row.id, today, tx));
      if (!product) throw new Error('insert returned no row');
      return product;
    },

    async update(
      tx: WriteTx,
      id: string,
      patch: z.output<typeof ProductPatch>,
      today: string,
    ): Promise<{ before: Product; after: Product } | null> {
      const before = await lockAndRead(tx, id, today);
      if (!before) return null;
      const set = toRow(patch);
      if (Object.keys(set).length > 0) await tx.update(products).set(set).where(eq(products.id, id));
      const after = await find(id, today, tx);
      if (!after) throw productNotFound();
      return { before, after };
    },

    async delete(tx: WriteTx, id: string, today: string): Promise<Product | null> {
      const product = await lockAndRead(tx, id, today);
      if (!product) return null;
      await tx.delete(products).where(eq(products.id, id));
      return product;
    },
  };
}
