import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Product, ProductInput, ProductListQuery, ProductPage, ProductPatch } from '../../../shared/product';
import { authorizeRecord } from '../../auth/record-guard';
import type { Db } from '../../db/client';
import { errorAnswers, NoContent } from '../../errors';
import { mallToday } from '../../lib/mall-time';
import { routeWriter } from '../../write-path';
import { productNotFound, productRepository, productSnapshot, productWriteError } from './repository';

const IdParams = z.strictObject({ id: z.uuid('Product not found') });

export const productRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date; timeZone: string }> = async (
  app,
  { db, now, timeZone },
) => {
  const products = productRepository(db);
  const write = routeWriter(db, now, productWriteError);
  const today = () => mallToday(timeZone, now());
  // A product shows its offer's discounted price only while the offer is active: the mall's date counts.
  const cache = { varies: ['catalog', 'mallDate'] } as const;

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'product' }, cache },
      schema: { querystring: ProductListQuery, response: { 200: ProductPage } },
    },
    (request) => products.list(request.query, today()),
  );

  app.get(
    '/:id',
    {
      config: { permission: { action: 'read', resource: 'product' }, cache },
      schema: { params: IdParams, response: { 200: Product, ...errorAnswers(404) } },
    },
    (request) => products.get(request.params.id, today()),
  );

  app.post(
    '/',
    {
      config: { permission: { action: 'create', resource: 'product' } },
      schema: { body: ProductInput, response: { 201: Product, ...errorAnswers(409) } },
    },
    async (request, reply) => {
      await authorizeRecord(request, 'create', 'product', async () => ({ shopId: request.body.shopId }));
      const created = await write(request, async ({ tx, record }) => {
        const product = await products.insert(tx, request.body, today());
        record({
          entityType: 'product',
          entityId: product.id,
          entityName: product.name,
          shopId: product.shopId,
          action: 'create',
          after: productSnapshot(product),
        });
        return product;
      });
      // The record as the transaction read it after the insert: no second read after the commit.
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/:id',
    {
      config: { permission: { action: 'update', resource: 'product' } },
      schema: { params: IdParams, body: ProductPatch, response: { 200: Product, ...errorAnswers(404, 409) } },
    },
    async (request) => {
      const { id } = request.params;
      return write(request, async ({ tx, record }) => {
        // A shop manager: a product of their shop, moved (if at all) to another of their shops.
        const shopOf = async () => {
          const shopId = await products.shopOf(tx, id);
          return shopId ? { shopId } : null;
        };
        await authorizeRecord(request, 'update', 'product', shopOf);
        const movedTo = request.body.shopId;
        if (movedTo) await authorizeRecord(request, 'update', 'product', async () => ({ shopId: movedTo }));
        const changed = await products.update(tx, id, request.body, today());
        if (!changed) throw productNotFound();
        record({
          entityType: 'product',
          entityId: id,
          entityName: changed.after.name,
          shopId: changed.after.shopId,
          action: 'update',
          before: productSnapshot(changed.before),
          after: productSnapshot(changed.after),
        });
        return changed.after;
      });
    },
  );

  app.delete(
    '/:id',
    {
      config: { permission: { action: 'delete', resource: 'product' } },
      schema: { params: IdParams, response: { 204: NoContent, ...errorAnswers(404) } },
    },
    async (request, reply) => {
      const photo = await write(request, async ({ tx, record }) => {
        await authorizeRecord(request, 'delete', 'product', async () => {
          const shopId = await products.shopOf(tx, request.params.id);
          return shopId ? { shopId } : null;
        });
        const product = await products.delete(tx, request.params.id, today());
        if (!product) throw productNotFound();
        record({
          entityType: 'product',
          entityId: product.id,
          entityName: product.name,
          shopId: product.shopId,
          action: 'delete',
          before: productSnapshot(product),
        });
        return product.image;
      });
      // Its photo went with it (a trigger, migration 0013); its files go now (docs/decisions/020).
      await app.imageStore.release([photo]);
      return reply.status(204).send();
    },
  );
};
