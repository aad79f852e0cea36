import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SEARCH_PAGE_SIZE, SEARCH_PREVIEW_SIZE, SearchQuery, SearchResults } from '../../../shared/search';
import type { Db } from '../../db/client';
import { mallToday } from '../../lib/mall-time';
import { searchRepository } from './repository';

/** GET /api/search: shops, products and running offers at once, typo tolerant (docs/decisions/016). */
export const searchRoutes: FastifyPluginAsyncZod<{
  db: Db;
  now: () => Date;
  timeZone: string;
  /** Products found in memory, the database handed their ids (the embedded database: decision 016). */
  productIndex: boolean;
  /** …built as soon as the server is ready (else on the first search). */
  buildIndexAtStart?: boolean;
}> = async (app, { db, now, timeZone, productIndex, buildIndexAtStart }) => {
  const search = searchRepository(db, { productIndex });
  // in the background: start-up does not wait for it, and searches meanwhile ask the database
  if (productIndex && buildIndexAtStart) app.addHook('onReady', async () => search.buildProductIndex());
  // The directory's words, and which offers run today: the mall's date counts, as for /api/offers.
  const cache = { varies: ['catalog', 'mallDate'] } as const;

  app.get(
    '/',
    {
      // Everyone who may read the directory may search it: shops, products and offers are read alike.
      config: { permission: { action: 'read', resource: 'shop' }, cache },
      schema: { querystring: SearchQuery, response: { 200: SearchResults } },
    },
    (request) => {
      const { q, kind, page, pageSize } = request.query;
      return search.search(q, {
        kind,
        page: kind ? page : 1,
        pageSize: pageSize ?? (kind ? SEARCH_PAGE_SIZE : SEARCH_PREVIEW_SIZE),
        today: mallToday(timeZone, now()),
        // the mall's words are read once per directory version (set with the session: auth/guards.ts)
        version: request.catalogVersion ?? 'none',
      });
    },
  );
};
