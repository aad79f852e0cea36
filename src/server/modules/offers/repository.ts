import { and, asc, count, desc, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  END_BEFORE_START,
  endNotBeforeStart,
  type Offer,
  type OfferInput,
  type OfferListQuery,
  type OfferPage,
  type OfferPatch,
  offerStatus,
} from '../../../shared/offer';
import type { Db } from '../../db/client';
import { offers, products, shops } from '../../db/schema';
import { HttpError } from '../../errors';
import { containsPattern, FOREIGN_KEY_VIOLATION, pgError } from '../../lib/db-errors';
import type { Executor, Snapshot, WriteTx } from '../../write-path';
import { activeOn, inactiveOn } from './rules';

export const offerNotFound = () => new HttpError(404, 'NOT_FOUND', 'Offer not found');

/** The only foreign key an offer has is its shop's. */
export function offerWriteError(error: unknown): HttpError | null {
  if (pgError(error)?.code !== FOREIGN_KEY_VIOLATION) return null;
  return new HttpError(400, 'VALIDATION', 'Shop is required', { shopId: 'Shop is required' });
}

function selectOffers(db: Executor, today: string) {
  return db
    .select({
      id: offers.id,
      title: offers.title,
      description: offers.description,
      discount: offers.discount,
      startDate: offers.startDate,
      endDate: offers.endDate,
      shopId: offers.shopId,
      shopName: shops.name,
      active: sql<boolean>`(${activeOn(today)})`,
      createdAt: offers.createdAt,
    })
    .from(offers)
    .innerJoin(shops, eq(shops.id, offers.shopId));
}

type OfferRow = Omit<Offer, 'createdAt' | 'status'> & { createdAt: Date };
const toOffer = (row: OfferRow, today: string): Offer => ({
  ...row,
  status: offerStatus(row, today),
  createdAt: row.createdAt.toISOString(),
});

/** An offer as the audit log shows it. */
export function offerSnapshot(offer: Offer): Snapshot {
  const { title, description, discount, startDate, endDate, shopName } = offer;
  return { title, description, discount, startDate, endDate, shop: shopName };
}

/**
 * The offers' queries. Every read that says whether an offer is active takes the mall's date (`today`):
 * the routes pass the date of the request, so an answer is always the server's decision for that day.
 */
export function offerRepository(db: Db) {
  async function find(id: string, today: string, tx: Executor = db): Promise<Offer | null> {
    const [row] = await selectOffers(tx, today).where(eq(offers.id, id));
    return row ? toOffer(row, today) : null;
  }

  /** The offer as it is, its row locked until the write's transaction ends: one query, not two. */
  async function lockAndRead(tx: WriteTx, id: string, today: string): Promise<Offer | null> {
    const [row] = await selectOffers(tx, today).where(eq(offers.id, id)).for('update', { of: offers });
    return row ? toOffer(row, today) : null;
  }

  return {
    find,

    async get(id: string, today: string, tx: Executor = db): Promise<Offer> {
      const offer = await find(id, today, tx);
      if (!offer) throw offerNotFound();
      return offer;
    },

    async list(
      query: z.output<typeof OfferListQuery>,
      today: string,
      tx: Executor = db,
    ): Promise<z.output<typeof OfferPage>> {
      const { q, shopId, active, page, pageSize } = query;
      const filters: SQL[] = [];
      if (q) filters.push(ilike(offers.title, containsPattern(q)));
      if (shopId) filters.push(eq(offers.shopId, shopId));
      if (active === 'true') filters.push(activeOn(today));
      if (active === 'false') filters.push(inactiveOn(today));
      const where = filters.length > 0 ? and(...filters) : undefined;
      const [rows, [total]] = await Promise.all([
        selectOffers(tx, today)
          // Ending soonest first: what a shopper should not miss, and what an admin looks after.
          .where(where)
          .orderBy(
            desc(sql`(${activeOn(today)})`),
            asc(offers.endDate),
            asc(sql`lower(${offers.title})`),
            asc(offers.id),
          )
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        tx.select({ n: count() }).from(offers).where(where),
      ]);
      return { items: rows.map((row) => toOffer(row, today)), total: total?.n ?? 0, page, pageSize };
    },

    async countActive(today: string, tx: Executor = db): Promise<number> {
      const [row] = await tx.select({ n: count() }).from(offers).where(activeOn(today));
      return row?.n ?? 0;
    },

    async insert(tx: WriteTx, values: z.output<typeof OfferInput>, today: string): Promise<Offer> {
      const [row] = await tx.insert(offers).values(values).returning({ id: offers.id });
      const offer = row && (await find(row.id, today, tx));
      if (!offer) throw new Error('insert returned no row');
      return offer;
    },

    /**
     * Checks the edit against the stored offer (the date pair as it will be stored; no move to another
     * shop while products use it), then applies it. The offer before and after; null when there is none.
     */
    async update(
      tx: WriteTx,
      id: string,
      patch: z.output<typeof OfferPatch>,
      today: string,
    ): Promise<{ before: Offer; after: Offer } | null> {
      const before = await lockAndRead(tx, id, today);
      if (!before) return null;
      if (!endNotBeforeStart({ ...before, ...patch })) {
        throw new HttpError(400, 'VALIDATION', END_BEFORE_START, { endDate: END_BEFORE_START });
      }
      if (patch.shopId && patch.shopId !== before.shopId) {
        const [used] = await tx.select({ n: count() }).from(products).where(eq(products.offerId, id));
        const n = used?.n ?? 0;
        if (n > 0) {
          throw new HttpError(
            409,
            'IN_USE',
            `${n} ${n === 1 ? 'product uses' : 'products use'} this offer; remove it from them before moving the offer to another shop.`,
          );
        }
      }
      if (Object.keys(patch).length > 0) await tx.update(offers).set(patch).where(eq(offers.id, id));
      const after = await find(id, today, tx);
      if (!after) throw offerNotFound();
      return { before, after };
    },

    /** Deletes the offer; the products' foreign key clears their offer in the same statement. */
    async delete(
      tx: WriteTx,
      id: string,
      today: string,
    ): Promise<{ offer: Offer; products: { id: string; name: string }[] } | null> {
      const offer = await lockAndRead(tx, id, today);
      if (!offer) return null;
      const using = await tx
        .select({ id: products.id, name: products.name })
        .from(products)
        .where(eq(products.offerId, id));
      await tx.delete(offers).where(eq(offers.id, id));
      return { offer, products: using };
    },
  };
}
