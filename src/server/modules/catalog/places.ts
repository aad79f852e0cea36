import { asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Place, PlaceInput } from '../../../shared/place';
import type { Db } from '../../db/client';
import { placeNameKeys } from '../../db/place-name-keys';
import { categories, floors, shops } from '../../db/schema';
import { HttpError } from '../../errors';
import { FOREIGN_KEY_VIOLATION, pgError, UNIQUE_VIOLATION } from './db-errors';

const IdParams = z.strictObject({ id: z.uuid('Not found') });

interface PlaceKind {
  table: typeof categories | typeof floors;
  shopColumn: typeof shops.categoryId | typeof shops.floorId;
  /** "category" / "floor", for messages; and the resource of the permission policy. */
  noun: 'category' | 'floor';
}

/**
 * Categories and floors: the same list, add, rename and delete. Renaming shows on every shop at once
 * (shops refer to them by id); deleting one that shops use is refused with how many. Names are unique by
 * how they look: every write stores the name's keys and the database refuses a taken one (docs/decisions/011).
 */
function placeRoutes(kind: PlaceKind): FastifyPluginAsyncZod<{ db: Db }> {
  const { table, shopColumn, noun } = kind;
  const notFound = () => new HttpError(404, 'NOT_FOUND', `This ${noun} does not exist`);
  const duplicate = () =>
    new HttpError(409, 'DUPLICATE', `A ${noun} with this name already exists`, {
      name: `A ${noun} with this name already exists`,
    });

  return async (app, { db }) => {
    const shopCounts = db
      .select({ placeId: shopColumn, shopCount: count().as('shop_count') })
      .from(shops)
      .groupBy(shopColumn)
      .as('shop_counts');

    const select = () =>
      db
        .select({
          id: table.id,
          name: table.name,
          createdAt: table.createdAt,
          shopCount: shopCounts.shopCount,
        })
        .from(table)
        .leftJoin(shopCounts, eq(shopCounts.placeId, table.id));

    const toPlace = (row: {
      id: string;
      name: string;
      createdAt: Date;
      shopCount: number | null;
    }): Place => ({
      id: row.id,
      name: row.name,
      createdAt: row.createdAt.toISOString(),
      shopCount: Number(row.shopCount ?? 0),
    });

    const load = async (id: string) => {
      const [row] = await select().where(eq(table.id, id));
      if (!row) throw notFound();
      return toPlace(row);
    };

    const write = async <T>(run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        if (pgError(error)?.code === UNIQUE_VIOLATION) throw duplicate();
        throw error;
      }
    };

    app.get(
      '/',
      {
        config: { permission: { action: 'read', resource: noun }, catalogRead: true },
        schema: { response: { 200: z.object({ items: z.array(Place) }) } },
      },
      async () => ({
        items: (await select().orderBy(asc(sql`lower(${table.name})`), asc(table.name))).map(toPlace),
      }),
    );

    app.get(
      '/:id',
      {
        config: { permission: { action: 'read', resource: noun }, catalogRead: true },
        schema: { params: IdParams, response: { 200: Place } },
      },
      (request) => load(request.params.id),
    );

    app.post(
      '/',
      {
        config: { permission: { action: 'create', resource: noun } },
        schema: { body: PlaceInput, response: { 201: Place } },
      },
      async (request, reply) => {
        const { name } = request.body;
        const [row] = await write(() =>
          db
            .insert(table)
            .values({ name, ...placeNameKeys(name) })
            .returning({ id: table.id, name: table.name, createdAt: table.createdAt }),
        );
        if (!row) throw new Error('insert returned no row');
        return reply.status(201).send(toPlace({ ...row, shopCount: 0 }));
      },
    );

    app.patch(
      '/:id',
      {
        config: { permission: { action: 'update', resource: noun } },
        schema: { params: IdParams, body: PlaceInput, response: { 200: Place } },
      },
      async (request) => {
        const rows = await write(() =>
          db
            .update(table)
            .set({ name: request.body.name, ...placeNameKeys(request.body.name) })
            .where(eq(table.id, request.params.id))
            .returning({ id: table.id }),
        );
        if (rows.length === 0) throw notFound();
        return load(request.params.id);
      },
    );

    app.delete(
      '/:id',
      { config: { permission: { action: 'delete', resource: noun } }, schema: { params: IdParams } },
      async (request, reply) => {
        const place = await load(request.params.id);
        const inUse = (shopCount: number) =>
          new HttpError(
            409,
            'IN_USE',
            `${place.name} is used by ${shopCount} ${shopCount === 1 ? 'shop' : 'shops'}. Move ${shopCount === 1 ? 'it' : 'them'} to another ${noun} first.`,
          );
        if (place.shopCount > 0) throw inUse(place.shopCount);
        try {
          await db.delete(table).where(eq(table.id, place.id));
        } catch (error) {
          // A shop took it between the count and the delete: the foreign key refuses, say so.
          if (pgError(error)?.code === FOREIGN_KEY_VIOLATION) throw inUse((await load(place.id)).shopCount);
          throw error;
        }
        return reply.status(204).send();
      },
    );
  };
}

export const categoryRoutes = placeRoutes({
  table: categories,
  shopColumn: shops.categoryId,
  noun: 'category',
});
export const floorRoutes = placeRoutes({ table: floors, shopColumn: shops.floorId, noun: 'floor' });
