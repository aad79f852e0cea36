import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Place, PlaceInput } from '../../../shared/place';
import type { Db } from '../../db/client';
import { HttpError } from '../../errors';
import { FOREIGN_KEY_VIOLATION, pgError, UNIQUE_VIOLATION } from '../../lib/db-errors';
import { routeWriter } from '../../write-path';
import { CATEGORY, FLOOR, type PlaceKind, placeRepository } from './repository';

const IdParams = z.strictObject({ id: z.uuid('Not found') });

/**
 * Categories and floors: the same list, add, rename and delete. Renaming shows on every shop at once
 * (shops refer to them by id); deleting one that shops use is refused with how many. Names are unique by
 * how they look: every write stores the name's keys and the database refuses a taken one (docs/decisions/011).
 */
function placeRoutes(kind: PlaceKind): FastifyPluginAsyncZod<{ db: Db; now: () => Date }> {
  const { noun } = kind;
  const notFound = () => new HttpError(404, 'NOT_FOUND', `This ${noun} does not exist`);
  const duplicate = () =>
    new HttpError(409, 'DUPLICATE', `A ${noun} with this name already exists`, {
      name: `A ${noun} with this name already exists`,
    });
  const inUse = (place: Place, shopCount: number) =>
    new HttpError(
      409,
      'IN_USE',
      `${place.name} is used by ${shopCount} ${shopCount === 1 ? 'shop' : 'shops'}. Move ${shopCount === 1 ? 'it' : 'them'} to another ${noun} first.`,
    );
  const writeError = (error: unknown) => {
    const code = pgError(error)?.code;
    if (code === UNIQUE_VIOLATION) return duplicate();
    // Only a delete can break a shop's reference, and it counts the shops first under a lock; should a
    // shop still refer to it, say so as the count would.
    if (code === FOREIGN_KEY_VIOLATION)
      return new HttpError(
        409,
        'IN_USE',
        `This ${noun} is used by shops. Move them to another ${noun} first.`,
      );
    return null;
  };

  return async (app, { db, now }) => {
    const places = placeRepository(db, kind);
    const write = routeWriter(db, now, writeError);

    app.get(
      '/',
      {
        config: { permission: { action: 'read', resource: noun }, cache: { varies: ['catalog'] } },
        schema: { response: { 200: z.object({ items: z.array(Place) }) } },
      },
      async () => ({ items: await places.list() }),
    );

    app.get(
      '/:id',
      {
        config: { permission: { action: 'read', resource: noun }, cache: { varies: ['catalog'] } },
        schema: { params: IdParams, response: { 200: Place } },
      },
      async (request) => {
        const place = await places.find(request.params.id);
        if (!place) throw notFound();
        return place;
      },
    );

    app.post(
      '/',
      {
        config: { permission: { action: 'create', resource: noun } },
        schema: { body: PlaceInput, response: { 201: Place } },
      },
      async (request, reply) => {
        const place = await write(request, async ({ tx, record }) => {
          const created = await places.insert(tx, request.body.name);
          record({
            entityType: noun,
            entityId: created.id,
            entityName: created.name,
            action: 'create',
            after: { name: created.name },
          });
          return created;
        });
        return reply.status(201).send(place);
      },
    );

    app.patch(
      '/:id',
      {
        config: { permission: { action: 'update', resource: noun } },
        schema: { params: IdParams, body: PlaceInput, response: { 200: Place } },
      },
      async (request) => {
        const { id } = request.params;
        return write(request, async ({ tx, record }) => {
          const renamed = await places.rename(tx, id, request.body.name);
          if (!renamed) throw notFound();
          record({
            entityType: noun,
            entityId: id,
            entityName: renamed.after.name,
            action: 'update',
            before: { name: renamed.before.name },
            after: { name: renamed.after.name },
          });
          // As the transaction read it: no second read after the commit (as the other entities).
          return renamed.after;
        });
      },
    );

    app.delete(
      '/:id',
      { config: { permission: { action: 'delete', resource: noun } }, schema: { params: IdParams } },
      async (request, reply) => {
        await write(request, async ({ tx, record }) => {
          const outcome = await places.delete(tx, request.params.id);
          if (!outcome) throw notFound();
          if ('inUse' in outcome) throw inUse(outcome.inUse, outcome.inUse.shopCount);
          const place = outcome.deleted;
          record({
            entityType: noun,
            entityId: place.id,
            entityName: place.name,
            action: 'delete',
            before: { name: place.name },
          });
        });
        return reply.status(204).send();
      },
    );
  };
}

export const categoryRoutes = placeRoutes(CATEGORY);
export const floorRoutes = placeRoutes(FLOOR);
