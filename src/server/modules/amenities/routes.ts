import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Amenity, AmenityInput, AmenityPatch, FloorGuide } from '../../../shared/amenity';
import type { Db } from '../../db/client';
import { errorAnswers, NoContent } from '../../errors';
import { routeWriter } from '../../write-path';
import {
  amenityName,
  amenityNotFound,
  amenityRepository,
  amenitySnapshot,
  amenityWriteError,
} from './repository';

const IdParams = z.strictObject({ id: z.uuid('Not found') });

/**
 * A floor's amenities (restrooms, lifts, ATMs…): every signed-in person reads them, admins add, change
 * and delete them (docs/decisions/018). Reads are cached with the directory: a trigger raises the
 * catalogue version on every change (migration 0008).
 */
export const amenityRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date }> = async (app, { db, now }) => {
  const repository = amenityRepository(db);
  const write = routeWriter(db, now, amenityWriteError);

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'amenity' }, cache: { varies: ['catalog'] } },
      schema: { response: { 200: z.object({ items: z.array(Amenity) }) } },
    },
    async () => ({ items: await repository.list() }),
  );

  app.get(
    '/:id',
    {
      config: { permission: { action: 'read', resource: 'amenity' }, cache: { varies: ['catalog'] } },
      schema: { params: IdParams, response: { 200: Amenity, ...errorAnswers(404) } },
    },
    async (request) => {
      const amenity = await repository.find(request.params.id);
      if (!amenity) throw amenityNotFound();
      return amenity;
    },
  );

  app.post(
    '/',
    {
      config: { permission: { action: 'create', resource: 'amenity' } },
      schema: { body: AmenityInput, response: { 201: Amenity } },
    },
    async (request, reply) => {
      const amenity = await write(request, async ({ tx, record }) => {
        const created = await repository.insert(tx, request.body);
        record({
          entityType: 'amenity',
          entityId: created.id,
          entityName: amenityName(created),
          action: 'create',
          after: amenitySnapshot(created),
        });
        return created;
      });
      return reply.status(201).send(amenity);
    },
  );

  app.patch(
    '/:id',
    {
      config: { permission: { action: 'update', resource: 'amenity' } },
      schema: { params: IdParams, body: AmenityPatch, response: { 200: Amenity, ...errorAnswers(404) } },
    },
    async (request) => {
      const { id } = request.params;
      return write(request, async ({ tx, record }) => {
        const updated = await repository.update(tx, id, request.body);
        if (!updated) throw amenityNotFound();
        record({
          entityType: 'amenity',
          entityId: id,
          entityName: amenityName(updated.after),
          action: 'update',
          before: amenitySnapshot(updated.before),
          after: amenitySnapshot(updated.after),
        });
        return updated.after;
      });
    },
  );

  app.delete(
    '/:id',
    {
      config: { permission: { action: 'delete', resource: 'amenity' } },
      schema: { params: IdParams, response: { 204: NoContent, ...errorAnswers(404) } },
    },
    async (request, reply) => {
      await write(request, async ({ tx, record }) => {
        const deleted = await repository.delete(tx, request.params.id);
        if (!deleted) throw amenityNotFound();
        record({
          entityType: 'amenity',
          entityId: deleted.id,
          entityName: amenityName(deleted),
          action: 'delete',
          before: amenitySnapshot(deleted),
        });
      });
      return reply.status(204).send();
    },
  );
};

/**
 * The shoppers' Floors page in one read: floors by level, each with its shops by unit and its amenities;
 * `?floor=` one floor's only; with `&shop=`, of that floor's shops only that one (a shop page's "Find it on
 * …" plan highlights its shop and dims the others: a large mall's floor is 45 KB of other shops' pins, most
 * of a shop page's weight).
 */
const FloorGuideQuery = z.strictObject({
  floor: z.uuid('Unknown floor').optional(),
  shop: z.uuid('Unknown shop').optional(),
});

export const floorGuideRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const repository = amenityRepository(db);
  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'floor' }, cache: { varies: ['catalog'] } },
      schema: { querystring: FloorGuideQuery, response: { 200: FloorGuide } },
    },
    async (request) => repository.guide(request.query.floor, request.query.shop),
  );
};
