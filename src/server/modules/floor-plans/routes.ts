import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FloorGuideEntry } from '../../../shared/amenity';
import { FloorPinsInput, pinText } from '../../../shared/floor-plan';
import type { Db } from '../../db/client';
import { errorAnswers, HttpError } from '../../errors';
import { routeWriter } from '../../write-path';
import { amenityRepository } from '../amenities/repository';
import { placePins } from './repository';

const IdParams = z.strictObject({ id: z.uuid('Not found') });

/**
 * PUT /api/floors/:id/pins (docs/decisions/021): sets or clears the pins of shops and amenities on the
 * floor's plan, all or nothing. A change to the floor, so the floor's update permission (admins only);
 * each pin that moves is its shop's or amenity's update in the log. Answers the floor as the Floors page
 * shows it.
 */
export const floorPinRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date }> = async (
  app,
  { db, now },
) => {
  const write = routeWriter(db, now);
  const guide = amenityRepository(db);

  app.put(
    '/:id/pins',
    {
      config: { permission: { action: 'update', resource: 'floor' } },
      schema: {
        params: IdParams,
        body: FloorPinsInput,
        response: { 200: FloorGuideEntry, ...errorAnswers(404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return write(request, async ({ tx, record }) => {
        const placed = await placePins(tx, id, request.body.pins);
        if (!placed) throw new HttpError(404, 'NOT_FOUND', 'This floor does not exist');
        for (const change of placed.changes) {
          record({
            entityType: change.kind,
            entityId: change.id,
            entityName: change.name,
            shopId: change.shopId,
            action: 'update',
            before: { pin: pinText(change.before) },
            after: { pin: pinText(change.after) },
          });
        }
        const { floors } = await guide.guide(undefined, undefined, tx);
        const entry = floors.find((floor) => floor.id === id);
        if (!entry) throw new HttpError(404, 'NOT_FOUND', 'This floor does not exist');
        return entry;
      });
    },
  );
};
