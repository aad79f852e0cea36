import { and, asc, count, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Shop, ShopDetail, ShopInput, ShopListQuery, ShopPage, ShopPatch } from '../../../shared/shop';
import type { Db } from '../../db/client';
import { categories, floors, offers, products, shops } from '../../db/schema';
import { HttpError } from '../../errors';
import { containsPattern, FOREIGN_KEY_VIOLATION, pgError } from './db-errors';

const IdParams = z.strictObject({ id: z.uuid('Shop not found') });
const notFound = () => new HttpError(404, 'NOT_FOUND', 'Shop not found');

/** A category or floor id that does not exist is a field error, like an empty one. */
function unknownPlace(error: unknown): HttpError | null {
  const cause = pgError(error);
  if (cause?.code !== FOREIGN_KEY_VIOLATION) return null;
  if (cause.constraint?.includes('category')) {
    return new HttpError(400, 'VALIDATION', 'Category is required', { categoryId: 'Category is required' });
  }
  if (cause.constraint?.includes('floor')) {
    return new HttpError(400, 'VALIDATION', 'Floor is required', { floorId: 'Floor is required' });
  }
  return null;
}

const shopColumns = {
  id: shops.id,
  name: shops.name,
  description: shops.description,
  categoryId: shops.categoryId,
  category: categories.name,
  floorId: shops.floorId,
  floor: floors.name,
  location: shops.location,
  contact: shops.contact,
  openingHours: shops.openingHours,
  createdAt: shops.createdAt,
};

function selectShops(db: Db) {
  return db
    .select(shopColumns)
    .from(shops)
    .innerJoin(categories, eq(categories.id, shops.categoryId))
    .innerJoin(floors, eq(floors.id, shops.floorId));
}

type ShopRow = Omit<Shop, 'createdAt'> & { createdAt: Date };
export const toShop = (row: ShopRow): Shop => ({ ...row, createdAt: row.createdAt.toISOString() });

export async function loadShopDetail(db: Db, id: string): Promise<ShopDetail> {
  const [[row], [productCount], [offerCount]] = await Promise.all([
    selectShops(db).where(eq(shops.id, id)),
    db.select({ n: count() }).from(products).where(eq(products.shopId, id)),
    db.select({ n: count() }).from(offers).where(eq(offers.shopId, id)),
  ]);
  if (!row) throw notFound();
  return { ...toShop(row), productCount: productCount?.n ?? 0, offerCount: offerCount?.n ?? 0 };
}

/** GET /api/shops: a page of shops and the total, from the database (npm run bench runs it without HTTP too). */
export async function listShops(
  db: Db,
  query: z.output<typeof ShopListQuery>,
): Promise<z.output<typeof ShopPage>> {
  const { q, categoryId, floorId, page, pageSize } = query;
  const filters: SQL[] = [];
  if (q) filters.push(ilike(shops.name, containsPattern(q)));
  if (categoryId) filters.push(eq(shops.categoryId, categoryId));
  if (floorId) filters.push(eq(shops.floorId, floorId));
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, [total]] = await Promise.all([
    selectShops(db)
      .where(where)
      .orderBy(asc(sql`lower(${shops.name})`), asc(shops.name), asc(shops.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(shops).where(where),
  ]);
  return { items: rows.map(toShop), total: total?.n ?? 0, page, pageSize };
}

export const shopRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'shop' }, catalogRead: true },
      schema: { querystring: ShopListQuery, response: { 200: ShopPage } },
    },
    (request) => listShops(db, request.query),
  );

  app.get(
    '/:id',
    {
      config: { permission: { action: 'read', resource: 'shop' }, catalogRead: true },
      schema: { params: IdParams, response: { 200: ShopDetail } },
    },
    (request) => loadShopDetail(db, request.params.id),
  );

  app.post(
    '/',
    {
      config: { permission: { action: 'create', resource: 'shop' } },
      schema: { body: ShopInput, response: { 201: ShopDetail } },
    },
    async (request, reply) => {
      try {
        const [row] = await db.insert(shops).values(request.body).returning({ id: shops.id });
        if (!row) throw new Error('insert returned no row');
        return reply.status(201).send(await loadShopDetail(db, row.id));
      } catch (error) {
        throw unknownPlace(error) ?? error;
      }
    },
  );

  app.patch(
    '/:id',
    {
      config: { permission: { action: 'update', resource: 'shop' } },
      schema: { params: IdParams, body: ShopPatch, response: { 200: ShopDetail } },
    },
    async (request) => {
      if (Object.keys(request.body).length === 0) return loadShopDetail(db, request.params.id);
      try {
        const rows = await db
          .update(shops)
          .set(request.body)
          .where(eq(shops.id, request.params.id))
          .returning({ id: shops.id });
        if (rows.length === 0) throw notFound();
      } catch (error) {
        throw unknownPlace(error) ?? error;
      }
      return loadShopDetail(db, request.params.id);
    },
  );

  app.delete(
    '/:id',
    { config: { permission: { action: 'delete', resource: 'shop' } }, schema: { params: IdParams } },
    async (request, reply) => {
      // One statement: the foreign keys cascade to the shop's products and offers atomically.
      const rows = await db.delete(shops).where(eq(shops.id, request.params.id)).returning({ id: shops.id });
      if (rows.length === 0) throw notFound();
      return reply.status(204).send();
    },
  );
};
