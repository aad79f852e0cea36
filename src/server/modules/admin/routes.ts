import { count } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AdminInvite, AdminStats, CreatedAdminInvite } from '../../../shared/auth';
import { createInvite, listOpenInvites, revokeInvite } from '../../auth/invites';
import type { Db } from '../../db/client';
import { offers, products, shops } from '../../db/schema';
import { HttpError } from '../../errors';
import { mallToday } from '../../lib/mall-time';
import { activeOn } from '../catalog/offers';

export interface AdminRoutesOptions {
  db: Db;
  now: () => Date;
  timeZone: string;
}

/** Invites and the dashboard's figures: admins only (src/shared/permissions.ts). */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, { db, now, timeZone }) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post(
    '/admin/invites',
    {
      config: { permission: { action: 'create', resource: 'invite' } },
      schema: { response: { 201: z.object({ invite: CreatedAdminInvite }) } },
    },
    async (request, reply) => {
      const invite = await createInvite(db, request.user?.id ?? null, now());
      return reply.status(201).send({ invite });
    },
  );

  app.get(
    '/admin/invites',
    {
      config: { permission: { action: 'read', resource: 'invite' } },
      schema: { response: { 200: z.object({ invites: z.array(AdminInvite) }) } },
    },
    async () => ({
      invites: await listOpenInvites(db, now()),
    }),
  );

  app.delete(
    '/admin/invites/:id',
    {
      config: { permission: { action: 'delete', resource: 'invite' } },
      schema: { params: z.strictObject({ id: z.uuid('This invite does not exist or was already used') }) },
    },
    async (request, reply) => {
      if (!(await revokeInvite(db, request.params.id))) {
        throw new HttpError(404, 'NOT_FOUND', 'This invite does not exist or was already used');
      }
      return reply.status(204).send();
    },
  );

  app.get(
    '/stats',
    {
      config: { permission: { action: 'read', resource: 'stats' } },
      schema: { response: { 200: AdminStats } },
    },
    async () => {
      const today = mallToday(timeZone, now());
      const [[shopCount], [productCount], [offerCount], [activeCount]] = await Promise.all([
        db.select({ n: count() }).from(shops),
        db.select({ n: count() }).from(products),
        db.select({ n: count() }).from(offers),
        db.select({ n: count() }).from(offers).where(activeOn(today)),
      ]);
      return {
        shops: shopCount?.n ?? 0,
        products: productCount?.n ?? 0,
        offers: offerCount?.n ?? 0,
        activeOffers: activeCount?.n ?? 0,
      };
    },
  );
};
