import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Offer,
  OfferInput,
  OfferListQuery,
  OfferPage,
  OfferPatch,
  ReviewedOffer,
} from '../../../shared/offer';
import { authorizeRecord } from '../../auth/record-guard';
import type { Db } from '../../db/client';
import { errorAnswers, NoContent } from '../../errors';
import { mallToday } from '../../lib/mall-time';
import { routeWriter } from '../../write-path';
import { submissionOf } from '../review-decisions';
import {
  offerNotFound,
  offerRepository,
  offerSnapshot,
  offerWriteError,
  proposalSnapshot,
} from './repository';

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
      schema: { params: IdParams, response: { 200: Offer, ...errorAnswers(404) } },
    },
    (request) => offers.get(request.params.id, today()),
  );

  app.post(
    '/',
    {
      config: { permission: { action: 'create', resource: 'offer' } },
      schema: { body: OfferInput, response: { 201: ReviewedOffer } },
    },
    async (request, reply) => {
      await authorizeRecord(request, 'create', 'offer', async () => ({ shopId: request.body.shopId }));
      const created = await write(request, async ({ tx, record, at }) => {
        const submission = submissionOf(request, at);
        const offer = await offers.insert(tx, request.body, today(), submission);
        record({
          entityType: 'offer',
          entityId: offer.id,
          entityName: offer.title,
          shopId: offer.shopId,
          action: 'create',
          after: offerSnapshot(offer),
          detail: submission ? { review: 'pending' } : null,
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
      schema: {
        params: IdParams,
        body: OfferPatch,
        response: { 200: ReviewedOffer, ...errorAnswers(404, 409) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return write(request, async ({ tx, record, at }) => {
        await authorizeRecord(request, 'update', 'offer', async () => {
          const shopId = await offers.shopOf(tx, id);
          return shopId ? { shopId } : null;
        });
        const submission = submissionOf(request, at);
        const changed = await offers.update(tx, id, request.body, today(), submission);
        if (!changed) throw offerNotFound();
        if (changed.proposed) {
          // The live terms stay; the log says what the shop asked for.
          record({
            entityType: 'offer',
            entityId: id,
            entityName: changed.after.title,
            shopId: changed.after.shopId,
            action: 'submit',
            before: proposalSnapshot(changed.before.review?.proposal ?? null),
            after: proposalSnapshot(changed.after.review?.proposal ?? null),
          });
        } else {
          record({
            entityType: 'offer',
            entityId: id,
            entityName: changed.after.title,
            shopId: changed.after.shopId,
            action: submission ? 'submit' : 'update',
            before: offerSnapshot(changed.before),
            after: offerSnapshot(changed.after),
          });
        }
        return changed.after;
      });
    },
  );

  app.delete(
    '/:id',
    {
      config: { permission: { action: 'delete', resource: 'offer' } },
      schema: { params: IdParams, response: { 204: NoContent, ...errorAnswers(404) } },
    },
    async (request, reply) => {
      await write(request, async ({ tx, record }) => {
        const deleted = await offers.delete(tx, request.params.id, today());
        if (!deleted) throw offerNotFound();
        record({
          entityType: 'offer',
          entityId: deleted.offer.id,
          entityName: deleted.offer.title,
          shopId: deleted.offer.shopId,
          action: 'delete',
          before: offerSnapshot(deleted.offer),
          detail: deleted.products.length > 0 ? { productsNoLongerOnOffer: deleted.products } : null,
        });
      });
      return reply.status(204).send();
    },
  );
};
