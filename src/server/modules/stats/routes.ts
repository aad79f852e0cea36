import { count } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminStats } from '../../../shared/auth';
import type { Db } from '../../db/client';
import { offers, products, shops } from '../../db/schema';
import { mallToday } from '../../lib/mall-time';
import { approvedOnly, offerRepository } from '../offers/repository';

/** The admin dashboard's figures: admins only, never cached. */
export const statsRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date; timeZone: string }> = async (
  app,
  { db, now, timeZone },
) => {
  const offerQueries = offerRepository(db);
  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'stats' } },
      schema: { response: { 200: AdminStats } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const [[shopCount], [productCount], [offerCount], activeOffers] = await Promise.all([
        db.select({ n: count() }).from(shops),
        db.select({ n: count() }).from(products),
        // the offers the Offers list shows: approved ones (the rest wait in Approvals)
        db.select({ n: count() }).from(offers).where(approvedOnly),
        offerQueries.countActive(mallToday(timeZone, now())),
      ]);
      return {
        shops: shopCount?.n ?? 0,
        products: productCount?.n ?? 0,
        offers: offerCount?.n ?? 0,
        activeOffers,
      };
    },
  );
};
