import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApproveInput, ReviewedOffer, SendBackInput } from '../../../shared/offer';
import type { Db } from '../../db/client';
import { mallToday } from '../../lib/mall-time';
import { routeWriter } from '../../write-path';
import { registerReviewDecisions } from '../review-decisions';
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

  registerReviewDecisions<ReviewedOffer>(app, {
    entityType: 'offer',
    params: IdParams,
    approveBody: ApproveInput,
    sendBackBody: SendBackInput,
    answer: ReviewedOffer,
    write,
    approve: (tx, id, version) => offers.approve(tx, id, version, today()),
    sendBack: (tx, id, decision) => offers.sendBack(tx, id, decision, today()),
    notFound: offerNotFound,
    snapshot: offerSnapshot,
  });
};
