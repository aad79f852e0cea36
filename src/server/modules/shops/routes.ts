import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ShopDetail, ShopInput, ShopListQuery, ShopPage, ShopPatch } from '../../../shared/shop';
import { authorizeRecord } from '../../auth/record-guard';
import type { Db } from '../../db/client';
import { errorAnswers, NoContent } from '../../errors';
import { routeWriter } from '../../write-path';
import { shopNotFound, shopRepository, shopSnapshot, shopWriteError } from './repository';

const IdParams = z.strictObject({ id: z.uuid('Shop not found') });

/** /api/shops: thin routes — parse, authorise (config.permission), call the repository, reply. */
export const shopRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date; timeZone: string }> = async (
  app,
  { db, now, timeZone },
) => {
  const shops = shopRepository(db, { timeZone });
  const write = routeWriter(db, now, shopWriteError);

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'shop' }, cache: { varies: ['catalog'] } },
      schema: { querystring: ShopListQuery, response: { 200: ShopPage } },
    },
    (request) => shops.list(request.query),
  );

  app.get(
    '/:id',
    {
      config: { permission: { action: 'read', resource: 'shop' }, cache: { varies: ['catalog'] } },
      schema: { params: IdParams, response: { 200: ShopDetail, ...errorAnswers(404) } },
    },
    (request) => shops.detail(request.params.id),
  );

  app.post(
    '/',
    {
      config: { permission: { action: 'create', resource: 'shop' } },
      schema: { body: ShopInput, response: { 201: ShopDetail, ...errorAnswers(409) } },
    },
    async (request, reply) => {
      const created = await write(request, async ({ tx, record }) => {
        const shop = await shops.insert(tx, request.body);
        record({
          entityType: 'shop',
          entityId: shop.id,
          entityName: shop.name,
          shopId: shop.id,
          action: 'create',
          after: shopSnapshot(shop),
        });
        return shop;
      });
      // As the transaction read it: no second read after the commit.
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/:id',
    {
      config: { permission: { action: 'update', resource: 'shop' } },
      schema: { params: IdParams, body: ShopPatch, response: { 200: ShopDetail, ...errorAnswers(404, 409) } },
    },
    async (request) => {
      const { id } = request.params;
      // A shop manager may change their own shop's page, not its name, category or floor.
      await authorizeRecord(request, 'update', 'shop', async () => ({
        shopId: id,
        fields: Object.keys(request.body),
      }));
      return write(request, async ({ tx, record }) => {
        const changed = await shops.update(tx, id, request.body);
        if (!changed) throw shopNotFound();
        record({
          entityType: 'shop',
          entityId: id,
          entityName: changed.after.name,
          shopId: id,
          action: 'update',
          before: shopSnapshot(changed.before),
          after: shopSnapshot(changed.after),
        });
        return changed.after;
      });
    },
  );

  app.delete(
    '/:id',
    {
      config: { permission: { action: 'delete', resource: 'shop' } },
      schema: { params: IdParams, response: { 204: NoContent, ...errorAnswers(404) } },
    },
    async (request, reply) => {
      const images = await write(request, async ({ tx, record }) => {
        const deleted = await shops.delete(tx, request.params.id);
        if (!deleted) throw shopNotFound();
        record({
          entityType: 'shop',
          entityId: deleted.shop.id,
          entityName: deleted.shop.name,
          shopId: deleted.shop.id,
          action: 'delete',
          before: shopSnapshot(deleted.shop),
          // What went with it (the cascade), so the log tells what a shop delete removed.
          detail: {
            products: deleted.products.map(({ id, name }) => ({ id, name })),
            offers: deleted.offers,
          },
        });
        return [deleted.shop.logo, deleted.shop.cover, ...deleted.products.map((product) => product.image)];
      });
      // Its images and its products' photos went with it (a trigger); their files go now (decision 020).
      await app.imageStore.release(images);
      return reply.status(204).send();
    },
  );
};
