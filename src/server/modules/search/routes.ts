import { availableParallelism } from 'node:os';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SEARCH_PAGE_SIZE, SEARCH_PREVIEW_SIZE, SearchQuery, SearchResults } from '../../../shared/search';
import type { Db } from '../../db/client';
import { BoundedQueue, turnIn } from '../../lib/bounded-queue';
import { mallToday } from '../../lib/mall-time';
import { searchRepository } from './repository';

/** Searches waiting for a turn beyond those running; more are refused at once (503). */
export const SEARCHES_WAITING = 8;

/** GET /api/search: shops, products and running offers at once, typo tolerant (docs/decisions/016). */
export const searchRoutes: FastifyPluginAsyncZod<{
  db: Db;
  now: () => Date;
  timeZone: string;
}> = async (app, { db, now, timeZone }) => {
  const search = searchRepository(db);
  // Searches the read cache did not answer, at most a core's worth at once and a few waiting: one
  // corrected for typos costs some 16 plain ones, and 24 at once from one account held /api/health for
  // seconds. Past that: 503 with Retry-After (issue 31), like sign-ins and image uploads.
  const searching = new BoundedQueue(Math.max(2, availableParallelism()), SEARCHES_WAITING);
  // The directory's words, and which offers run today: the mall's date counts, as for /api/offers.
  const cache = { varies: ['catalog', 'mallDate'] } as const;

  app.get(
    '/',
    {
      // Everyone who may read the directory may search it: shops, products and offers are read alike.
      config: { permission: { action: 'read', resource: 'shop' }, cache },
      schema: { querystring: SearchQuery, response: { 200: SearchResults } },
    },
    (request, reply) => {
      const { q, kind, page, pageSize } = request.query;
      return turnIn(searching, reply).run(() =>
        search.search(q, {
          kind,
          page: kind ? page : 1,
          pageSize: pageSize ?? (kind ? SEARCH_PAGE_SIZE : SEARCH_PREVIEW_SIZE),
          today: mallToday(timeZone, now()),
          // the mall's words are read once per directory version (set with the session: auth/guards.ts)
          version: request.catalogVersion ?? 'none',
        }),
      );
    },
  );
};
