import { and, asc, count, eq, ilike, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { describeHours } from '../../../shared/hours';
import { isOpenAt } from '../../../shared/hours-status';
import type { Shop, ShopDetail, ShopInput, ShopListQuery, ShopPage, ShopPatch } from '../../../shared/shop';
import type { Db } from '../../db/client';
import { categories, floors, mallHours, offers, products, shops } from '../../db/schema';
import { HttpError } from '../../errors';
import { containsPattern, FOREIGN_KEY_VIOLATION, pgError, UNIQUE_VIOLATION } from '../../lib/db-errors';
import { type Executor, readsOn, type Snapshot, type WriteTx } from '../../write-path';
import { approvedOnly } from '../offers/repository';

export const SHOP_CODE_TAKEN = 'Another shop already has this code';

export const shopNotFound = () => new HttpError(404, 'NOT_FOUND', 'Shop not found');

/** A category or floor id that does not exist is a field error, like an empty one. */
export function shopWriteError(error: unknown): HttpError | null {
  const cause = pgError(error);
  if (cause?.code === UNIQUE_VIOLATION && cause.constraint === 'shops_external_code_key') {
    return new HttpError(409, 'DUPLICATE', SHOP_CODE_TAKEN, { externalCode: SHOP_CODE_TAKEN });
  }
  if (cause?.code !== FOREIGN_KEY_VIOLATION) return null;
  if (cause.constraint?.includes('category')) {
    return new HttpError(400, 'VALIDATION', 'Category is required', { categoryId: 'Category is required' });
  }
  if (cause.constraint?.includes('floor')) {
    return new HttpError(400, 'VALIDATION', 'Floor is required', { floorId: 'Floor is required' });
  }
  return null;
}

const shopColumns = {
  id: shops.id,
  name: shops.name,
  slug: shops.slug,
  description: shops.description,
  categoryId: shops.categoryId,
  category: categories.name,
  floorId: shops.floorId,
  floor: floors.name,
  location: shops.location,
  contact: shops.contact,
  openingHours: shops.openingHours,
  hours: shops.hours,
  externalCode: shops.externalCode,
  logo: shops.logoImage,
  cover: shops.coverImage,
  pinX: shops.pinX,
  pinY: shops.pinY,
  createdAt: shops.createdAt,
};

function selectShops(db: Executor) {
  return db
    .select(shopColumns)
    .from(shops)
    .innerJoin(categories, eq(categories.id, shops.categoryId))
    .innerJoin(floors, eq(floors.id, shops.floorId));
}

type ShopRow = Omit<Shop, 'createdAt' | 'pin'> & {
  createdAt: Date;
  pinX: number | null;
  pinY: number | null;
};
const toShop = ({ pinX, pinY, ...row }: ShopRow): Shop => ({
  ...row,
  pin: pinX !== null && pinY !== null ? { x: pinX, y: pinY } : null,
  createdAt: row.createdAt.toISOString(),
});

/** A shop as the audit log shows it: what an admin sees in the form, places by name. */
export function shopSnapshot(shop: Shop): Snapshot {
  const { name, description, category, floor, location, contact, openingHours, hours, externalCode } = shop;
  return {
    name,
    description,
    category,
    floor,
    location,
    contact,
    openingHours,
    hours: describeHours(hours),
    externalCode,
  };
}

/** The shops' queries: used by the routes, scripts and tests alike. Reads take an optional transaction. */
export function shopRepository(db: Db, { timeZone }: { timeZone: string } = { timeZone: 'UTC' }) {
  async function find(id: string, tx: Executor = db): Promise<Shop | null> {
    const [row] = await selectShops(tx).where(eq(shops.id, id));
    return row ? toShop(row) : null;
  }

  async function detail(id: string, tx: Executor = db): Promise<ShopDetail> {
    const [shop, [productCount], [offerCount]] = await readsOn(tx, db, [
      () => find(id, tx),
      () => tx.select({ n: count() }).from(products).where(eq(products.shopId, id)),
      // what shoppers see: approved offers only (a manager's offer waiting for approval is not counted)
      () =>
        tx
          .select({ n: count() })
          .from(offers)
          .where(and(eq(offers.shopId, id), approvedOnly)),
    ] as const);
    if (!shop) throw shopNotFound();
    return { ...shop, productCount: productCount?.n ?? 0, offerCount: offerCount?.n ?? 0 };
  }

  /** The shop as it is, its row locked until the write's transaction ends: one query, not two. */
  async function lockAndRead(tx: WriteTx, id: string): Promise<Shop | null> {
    const [row] = await selectShops(tx).where(eq(shops.id, id)).for('update', { of: shops });
    return row ? toShop(row) : null;
  }

  /**
   * The shops (among those the other filters keep) open at `instant`: their hours are read and judged by
   * the shared computation (shared/hours-status.ts), bounded by the mall's, rather than in SQL, so the
   * browser and the server cannot disagree about "open".
   */
  async function openAtFilter(tx: Executor, others: SQL[], instant: number): Promise<SQL> {
    const [candidates, [mall]] = await readsOn(tx, db, [
      () =>
        tx
          .select({ id: shops.id, hours: shops.hours })
          .from(shops)
          .where(and(isNotNull(shops.hours), ...others)),
      () => tx.select({ hours: mallHours.hours }).from(mallHours),
    ] as const);
    const options = { timeZone, mall: mall?.hours ?? null };
    const open = candidates.filter((shop) => isOpenAt(shop.hours, instant, options)).map((shop) => shop.id);
    return open.length > 0 ? inArray(shops.id, open) : sql`false`;
  }

  return {
    find,

    detail,

    /** A page of shops and the total (npm run bench runs it without HTTP too). */
    async list(query: z.output<typeof ShopListQuery>, tx: Executor = db): Promise<z.output<typeof ShopPage>> {
      const { q, categoryId, floorId, openAt, page, pageSize } = query;
      const filters: SQL[] = [];
      if (q) filters.push(ilike(shops.name, containsPattern(q)));
      if (categoryId) filters.push(eq(shops.categoryId, categoryId));
      if (floorId) filters.push(eq(shops.floorId, floorId));
      if (openAt) filters.push(await openAtFilter(tx, filters, Date.parse(openAt)));
      const where = filters.length > 0 ? and(...filters) : undefined;
      const [rows, [total]] = await readsOn(tx, db, [
        () =>
          selectShops(tx)
            .where(where)
            .orderBy(asc(sql`lower(${shops.name})`), asc(shops.name), asc(shops.id))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        () => tx.select({ n: count() }).from(shops).where(where),
      ] as const);
      return { items: rows.map(toShop), total: total?.n ?? 0, page, pageSize };
    },

    /** The new shop, as its page shows it (a new shop has no products or offers yet). */
    async insert(tx: WriteTx, values: z.output<typeof ShopInput>): Promise<ShopDetail> {
      const [row] = await tx.insert(shops).values(values).returning({ id: shops.id });
      const shop = row && (await find(row.id, tx));
      if (!shop) throw new Error('insert returned no row');
      return { ...shop, productCount: 0, offerCount: 0 };
    },

    /** The shop before and after; null when there is no such shop. */
    async update(
      tx: WriteTx,
      id: string,
      patch: z.output<typeof ShopPatch>,
    ): Promise<{ before: Shop; after: ShopDetail } | null> {
      // A rename chooses a slug under the slugs' lock (migration 0016): taken before the row's lock, in
      // the order every write takes them, so a rename and an import of the same shop never deadlock.
      if (patch.name !== undefined) await tx.execute(sql`select shop_slugs_lock()`);
      const before = await lockAndRead(tx, id);
      if (!before) return null;
      if (Object.keys(patch).length > 0) await tx.update(shops).set(patch).where(eq(shops.id, id));
      return { before, after: await detail(id, tx) };
    },

    /**
     * Deletes the shop; its products and offers go with it (the foreign keys cascade in the same
     * statement). Returns what was deleted, for the log; null when there is no such shop.
     */
    async delete(
      tx: WriteTx,
      id: string,
    ): Promise<{
      shop: Shop;
      products: { id: string; name: string; image: string | null }[];
      offers: { id: string; title: string }[];
    } | null> {
      const shop = await lockAndRead(tx, id);
      if (!shop) return null;
      // One after the other: a transaction is one connection, and pg refuses overlapping queries on one
      // client (deprecated in pg 8, an error from pg 9).
      const gone = await tx
        .select({ id: products.id, name: products.name, image: products.image })
        .from(products)
        .where(eq(products.shopId, id));
      const goneOffers = await tx
        .select({ id: offers.id, title: offers.title })
        .from(offers)
        .where(eq(offers.shopId, id));
      await tx.delete(shops).where(eq(shops.id, id));
      return { shop, products: gone, offers: goneOffers };
    },
  };
}

export type ShopRepository = ReturnType<typeof shopRepository>;
