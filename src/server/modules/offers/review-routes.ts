import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApproveInput, ReviewedOffer, SendBackInput } from '../../../shared/offer';
import type { Db } from '../../db/client';
import { errorAnswers } from '../../errors';
import { mallToday } from '../../lib/mall-time';
import { routeWriter } from '../../write-path';
import { offerNotFound, offerRepository, offerSnapshot, offerWriteError } from './repository';

const IdParams = z.strictObject({ id: z.uuid('Offer not found') });

/**
 * The approvals queue (docs/decisions/015): offers shop managers submitted wait here until an admin
 * approves them (they go live) or sends them back with a comment (the shop sees it). Never cached.
 */
export const offerReviewRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date; timeZone: string }> = async (
  app,
  { db, now, timeZone },
) => {
  const offers = offerRepository(db);
  const write = routeWriter(db, now, offerWriteError);
  const today = () => mallToday(timeZone, now());
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'offer-review' } },
      schema: { response: { 200: z.object({ items: z.array(ReviewedOffer), total: z.number().int() }) } },
    },
    async () => {
      const items = await offers.listPending(today());
      return { items, total: items.length };
    },
  );

  app.post(
    '/:id/approve',
    {
      config: { permission: { action: 'update', resource: 'offer-review' } },
      schema: {
        params: IdParams,
        body: ApproveInput,
        response: { 200: ReviewedOffer, ...errorAnswers(409) },
      },
    },
    async (request) =>
      write(request, async ({ tx, record }) => {
        // refused (409) unless the offer is still exactly the version the admin saw
        const decided = await offers.approve(tx, request.params.id, request.body.version, today());
        if (!decided) throw offerNotFound();
        const { before, after } = decided;
        record({
          entityType: 'offer',
          entityId: after.id,
          entityName: after.title,
          shopId: after.shopId,
          action: 'approve',
          // A new offer: its terms went live; a change: the live terms before and after.
          before: before.approved ? offerSnapshot(before) : null,
          after: offerSnapshot(after),
          detail: { submittedBy: before.review?.submittedBy ?? null },
        });
        return after;
      }),
  );

  app.post(
    '/:id/send-back',
    {
      config: { permission: { action: 'update', resource: 'offer-review' } },
      schema: {
        params: IdParams,
        body: SendBackInput,
        response: { 200: ReviewedOffer, ...errorAnswers(409) },
      },
    },
    async (request) =>
      write(request, async ({ tx, record }) => {
        const offer = await offers.sendBack(tx, request.params.id, request.body, today());
        if (!offer) throw offerNotFound();
        record({
          entityType: 'offer',
          entityId: offer.id,
          entityName: offer.title,
          shopId: offer.shopId,
          action: 'send_back',
          detail: { comment: request.body.comment, submittedBy: offer.review?.submittedBy ?? null },
        });
        return offer;
      }),
  );
};
