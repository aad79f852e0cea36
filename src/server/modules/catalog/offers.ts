import { and, asc, count, desc, eq, gte, ilike, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  END_BEFORE_START,
  endNotBeforeStart,
  Offer,
  OfferInput,
  OfferListQuery,
  OfferPage,
  OfferPatch,
  offerStatus,
} from '../../../shared/offer';
import type { Db } from '../../db/client';
import { offers, products, shops } from '../../db/schema';
import { HttpError } from '../../errors';
import { mallToday } from '../../lib/mall-time';
import { containsPattern, FOREIGN_KEY_VIOLATION, pgError } from './db-errors';

const IdParams = z.strictObject({ id: z.uuid('Offer not found') });
const notFound = () => new HttpError(404, 'NOT_FOUND', 'Offer not found');
const unknownShop = () =>
  new HttpError(400, 'VALIDATION', 'Shop is required', { shopId: 'Shop is required' });

/** Active on the mall's `today`: start and end dates both count (inclusive). */
export function activeOn(today: string): SQL {
  return and(lte(offers.startDate, today), gte(offers.endDate, today)) as SQL;
}

function selectOffers(db: Db, today: string) {
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

export const offerRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date; timeZone: string }> = async (
  app,
  { db, now, timeZone },
) => {
  const today = () => mallToday(timeZone, now());
  const load = async (id: string) => {
    const day = today();
    const [row] = await selectOffers(db, day).where(eq(offers.id, id));
    if (!row) throw notFound();
    return toOffer(row, day);
  };

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'offer' }, catalogRead: true },
      schema: { querystring: OfferListQuery, response: { 200: OfferPage } },
    },
    async (request) => {
      const { q, shopId, active, page, pageSize } = request.query;
      const day = today();
      const filters: SQL[] = [];
      if (q) filters.push(ilike(offers.title, containsPattern(q)));
      if (shopId) filters.push(eq(offers.shopId, shopId));
      if (active === 'true') filters.push(activeOn(day));
      if (active === 'false')
        filters.push(or(lt(offers.endDate, day), sql`${offers.startDate} > ${day}`) as SQL);
      const where = filters.length > 0 ? and(...filters) : undefined;
      const [rows, [total]] = await Promise.all([
        selectOffers(db, day)
          // Ending soonest first: what a shopper should not miss, and what an admin looks after.
          .where(where)
          .orderBy(
            desc(sql`(${activeOn(day)})`),
            asc(offers.endDate),
            asc(sql`lower(${offers.title})`),
            asc(offers.id),
          )
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db.select({ n: count() }).from(offers).where(where),
      ]);
      return { items: rows.map((row) => toOffer(row, day)), total: total?.n ?? 0, page, pageSize };
    },
  );

  app.get(
    '/:id',
    {
      config: { permission: { action: 'read', resource: 'offer' }, catalogRead: true },
      schema: { params: IdParams, response: { 200: Offer } },
    },
    (request) => load(request.params.id),
  );

  app.post(
    '/',
    {
      config: { permission: { action: 'create', resource: 'offer' } },
      schema: { body: OfferInput, response: { 201: Offer } },
    },
    async (request, reply) => {
      try {
        const [row] = await db.insert(offers).values(request.body).returning({ id: offers.id });
        if (!row) throw new Error('insert returned no row');
        return reply.status(201).send(await load(row.id));
      } catch (error) {
        if (pgError(error)?.code === FOREIGN_KEY_VIOLATION) throw unknownShop();
        throw error;
      }
    },
  );

  app.patch(
    '/:id',
    {
      config: { permission: { action: 'update', resource: 'offer' } },
      schema: { params: IdParams, body: OfferPatch, response: { 200: Offer } },
    },
    async (request) => {
      const { id } = request.params;
      const patch = request.body;
      await db.transaction(async (tx) => {
        const [current] = await tx.select().from(offers).where(eq(offers.id, id)).for('update');
        if (!current) throw notFound();
        // One date may change alone: check the pair as it will be stored.
        if (!endNotBeforeStart({ ...current, ...patch })) {
          throw new HttpError(400, 'VALIDATION', END_BEFORE_START, { endDate: END_BEFORE_START });
        }
        if (patch.shopId && patch.shopId !== current.shopId) {
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
        if (Object.keys(patch).length === 0) return;
        try {
          await tx.update(offers).set(patch).where(eq(offers.id, id));
        } catch (error) {
          if (pgError(error)?.code === FOREIGN_KEY_VIOLATION) throw unknownShop();
          throw error;
        }
      });
      return load(id);
    },
  );

  app.delete(
    '/:id',
    { config: { permission: { action: 'delete', resource: 'offer' } }, schema: { params: IdParams } },
    async (request, reply) => {
      // The products' foreign key clears their offer_id in the same statement.
      const rows = await db
        .delete(offers)
        .where(eq(offers.id, request.params.id))
        .returning({ id: offers.id });
      if (rows.length === 0) throw notFound();
      return reply.status(204).send();
    },
  );
};
