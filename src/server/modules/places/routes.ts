import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { StoreType } from '../../../shared/mall-profile';
import {
  Category,
  CategoryInput,
  CategoryPatch,
  Floor,
  FloorInput,
  FloorPatch,
  levelLabel,
  type Place,
} from '../../../shared/place';
import type { Db } from '../../db/client';
import { floors } from '../../db/schema';
import { errorAnswers, HttpError, NoContent } from '../../errors';
import { FOREIGN_KEY_VIOLATION, pgError, UNIQUE_VIOLATION } from '../../lib/db-errors';
import { routeWriter } from '../../write-path';
import { CATEGORY, FLOOR, type PlaceKind, type PlaceRecord, placeRepository } from './repository';

const IdParams = z.strictObject({ id: z.uuid('Not found') });

/**
 * Categories and floors: the same list, add, rename and delete. Renaming shows on every shop at once
 * (shops refer to them by id); deleting one that shops use is refused with how many. Names are unique by
 * how they look: every write stores the name's keys and the database refuses a taken one (docs/decisions/011).
 */
interface PlaceSchemas {
  input: typeof CategoryInput | typeof FloorInput;
  patch: typeof CategoryPatch | typeof FloorPatch;
  // Place too: the repository's record is one type for both, each route's schema shapes its answer.
  item: typeof Place | typeof Category | typeof Floor;
}

/** What a create or an edit carries: a name, a floor's level, a category's store type. */
type PlaceBody = { name?: string; level?: number; schemaType?: StoreType };

/** What the log shows of a place: its name, a floor's level, a category's store type. */
const snapshot = ({ name, level, schemaType }: PlaceRecord) => ({
  name,
  ...(level === undefined ? {} : { level }),
  ...(schemaType === undefined ? {} : { schemaType }),
});

function placeRoutes(
  kind: PlaceKind,
  schemas: PlaceSchemas,
): FastifyPluginAsyncZod<{ db: Db; now: () => Date }> {
  const { noun } = kind;
  const { input, patch, item } = schemas;
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
  /** A level another floor holds: named when known (the check before the write), else in general (a race). */
  const levelTaken = (level: number, holder?: string) => {
    const message = holder
      ? `${holder} is already at ${levelLabel(level).toLowerCase()}`
      : 'Another floor is already at this level';
    return new HttpError(409, 'LEVEL_TAKEN', message, { level: message });
  };
  const writeError = (error: unknown) => {
    const cause = pgError(error);
    const code = cause?.code;
    if (code === UNIQUE_VIOLATION && cause?.constraint === 'floors_level_key')
      return new HttpError(409, 'LEVEL_TAKEN', 'Another floor is already at this level', {
        level: 'Another floor is already at this level',
      });
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
        schema: { response: { 200: z.object({ items: z.array(item) }) } },
      },
      async () => ({ items: await places.list() }),
    );

    app.get(
      '/:id',
      {
        config: { permission: { action: 'read', resource: noun }, cache: { varies: ['catalog'] } },
        schema: { params: IdParams, response: { 200: item, ...errorAnswers(404) } },
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
        schema: { body: input, response: { 201: item, ...errorAnswers(409) } },
      },
      async (request, reply) => {
        const { name, level, schemaType } = request.body as PlaceBody & { name: string };
        const place = await write(request, async ({ tx, record }) => {
          if (level !== undefined) {
            const holder = await places.floorAtLevel(tx, level);
            if (holder) throw levelTaken(level, holder.name);
          }
          const created = await places.insert(tx, { name, level, schemaType });
          record({
            entityType: noun,
            entityId: created.id,
            entityName: created.name,
            action: 'create',
            after: snapshot(created),
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
        schema: { params: IdParams, body: patch, response: { 200: item, ...errorAnswers(404, 409) } },
      },
      async (request) => {
        const { id } = request.params;
        const fields = request.body as PlaceBody;
        return write(request, async ({ tx, record }) => {
          if (fields.level !== undefined) {
            const holder = await places.floorAtLevel(tx, fields.level, id);
            if (holder) throw levelTaken(fields.level, holder.name);
          }
          const renamed = await places.update(tx, id, fields);
          if (!renamed) throw notFound();
          record({
            entityType: noun,
            entityId: id,
            entityName: renamed.after.name,
            action: 'update',
            before: snapshot(renamed.before),
            after: snapshot(renamed.after),
          });
          // As the transaction read it: no second read after the commit (as the other entities).
          return renamed.after;
        });
      },
    );

    app.delete(
      '/:id',
      {
        config: { permission: { action: 'delete', resource: noun } },
        schema: { params: IdParams, response: { 204: NoContent, ...errorAnswers(404, 409) } },
      },
      async (request, reply) => {
        const plan = await write(request, async ({ tx, record }) => {
          // Read before the delete: a floor's amenities go with it, and its entry names them.
          const goingWith = await places.amenitiesOf(tx, request.params.id);
          const [planRow] =
            noun === 'floor'
              ? await tx
                  .select({ key: floors.planImage })
                  .from(floors)
                  .where(eq(floors.id, request.params.id))
              : [];
          const outcome = await places.delete(tx, request.params.id);
          if (!outcome) throw notFound();
          if ('inUse' in outcome) throw inUse(outcome.inUse, outcome.inUse.shopCount);
          const place = outcome.deleted;
          record({
            entityType: noun,
            entityId: place.id,
            entityName: place.name,
            action: 'delete',
            before: snapshot(place),
            detail: goingWith.length > 0 ? { amenities: goingWith } : null,
          });
          return planRow?.key ?? null;
        });
        // A floor's plan went with it (a trigger); its files go now (docs/decisions/020).
        await app.imageStore.release([plan]);
        return reply.status(204).send();
      },
    );
  };
}

export const categoryRoutes = placeRoutes(CATEGORY, {
  input: CategoryInput,
  patch: CategoryPatch,
  item: Category,
});
export const floorRoutes = placeRoutes(FLOOR, { input: FloorInput, patch: FloorPatch, item: Floor });
