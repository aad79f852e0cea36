import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ShopDetail } from '../../../shared/shop';
import type { Db } from '../../db/client';
import { errorAnswers } from '../../errors';
import { shopNotFound, shopRepository } from '../shops/repository';
import { findShopByAddress } from './shop-address';

const AddressParams = z.strictObject({
  slug: z.string().min(1, 'Shop not found').max(200, 'Shop not found'),
});

/**
 * GET /api/shops/by-slug/:slug: a shop by its public address (docs/decisions/034) — its slug, an old slug
 * or its id; the answer names its current slug, which the public page moves to. Read as /api/shops/:id is.
 */
export const shopAddressRoutes: FastifyPluginAsyncZod<{ db: Db; timeZone: string }> = async (
  app,
  { db, timeZone },
) => {
  const shops = shopRepository(db, { timeZone });
  app.get(
    '/by-slug/:slug',
    {
      config: { permission: { action: 'read', resource: 'shop' }, cache: { varies: ['catalog'] } },
      schema: { params: AddressParams, response: { 200: ShopDetail, ...errorAnswers(404) } },
    },
    async (request) => {
      const found = await findShopByAddress(db, request.params.slug);
      if (!found) throw shopNotFound();
      return shops.detail(found.id);
    },
  );
};
