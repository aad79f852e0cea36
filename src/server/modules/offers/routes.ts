import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Offer, OfferInput, OfferListQuery, OfferPage, OfferPatch } from '../../../shared/offer';
import type { Db } from '../../db/client';
import { mallToday } from '../../lib/mall-time';
import { routeWriter } from '../../write-path';
import { offerNotFound, offerRepository, offerSnapshot, offerWriteError } from './repository';

const IdParams = z.strictObject({ id: z.uuid('Offer not found') });

export const offerRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date; timeZone: string }> = async (
  app,
  { db, now, timeZone },
) => {
  const offers = offerRepository(db);
  const write = routeWriter(db, now, offerWriteError);
  const today = () => mallToday(timeZone, now());
  // Whether an offer is active (and its status) depends on the mall's date as well as on the directory.
  const cache = { varies: ['catalog', 'mallDate'] } as const;

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'offer' }, cache },
      schema: { querystring: OfferListQuery, response: { 200: OfferPage } },
    },
    (request) => offers.list(request.query, today()),
  );

  app.get(
    '/:id',
    {
      config: { permission: { action: 'read', resource: 'offer' }, cache },
      schema: { params: IdParams, response: { 200: Offer } },
    },
    (request) => offers.get(request.params.id, today()),
  );

  app.post(
    '/',
    {
      config: { permission: { action: 'create', resource: 'offer' } },
      schema: { body: OfferInput, response: { 201: Offer } },
    },
    async (request, reply) => {
      const created = await write(request, async ({ tx, record }) => {
        const offer = await offers.insert(tx, request.body, today());
        record({
          entityType: 'offer',
          entityId: offer.id,
          entityName: offer.title,
          action: 'create',
          after: offerSnapshot(offer),
        });
        return offer;
      });
      // The record as the transaction read it after the insert: no second read after the commit.
      return reply.status(201).send(created);
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
      return write(request, async ({ tx, record }) => {
        const changed = await offers.update(tx, id, request.body, today());
        if (!changed) throw offerNotFound();
        record({
          entityType: 'offer',
          entityId: id,
          entityName: changed.after.title,
          action: 'update',
          before: offerSnapshot(changed.before),
          after: offerSnapshot(changed.after),
        });
        return changed.after;
      });
    },
  );

  app.delete(
    '/:id',
    { config: { permission: { action: 'delete', resource: 'offer' } }, schema: { params: IdParams } },
    async (request, reply) => {
      await write(request, async ({ tx, record }) => {
        const deleted = await offers.delete(tx, request.params.id, today());
        if (!deleted) throw offerNotFound();
        record({
          entityType: 'offer',
          entityId: deleted.offer.id,
          entityName: deleted.offer.title,
          action: 'delete',
          before: offerSnapshot(deleted.offer),
          detail: deleted.products.length > 0 ? { productsNoLongerOnOffer: deleted.products } : null,
        });
      });
      return reply.status(204).send();
    },
  );
};
