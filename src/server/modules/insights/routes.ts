import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  HitsInput,
  INSIGHTS_DEFAULT_DAYS,
  INSIGHTS_MAX_DAYS,
  InsightsQuery,
  InsightsReport,
  ShopInsights,
} from '../../../shared/insights';
import { authorizeRecord } from '../../auth/record-guard';
import type { Db } from '../../db/client';
import { errorAnswers, HttpError, NoContent } from '../../errors';
import { mallToday } from '../../lib/mall-time';
import { searchRepository } from '../search/repository';
import { searchKey } from '../search/vocabulary';
import { shopNotFound } from '../shops/repository';
import { isBot } from './bots';
import type { InsightCounter } from './counter';
import { insightsRepository } from './repository';

const IdParams = z.strictObject({ id: z.uuid('Shop not found') });

/**
 * Insights (docs/decisions/035). POST /hits: what a browser saw (views, searches, taps), counted in
 * memory — no database on this path. GET /: the mall's report (admins). GET /shops/:id: one shop's
 * numbers (admins and that shop's managers, never another shop's).
 */
export const insightsRoutes: FastifyPluginAsyncZod<{
  db: Db;
  now: () => Date;
  timeZone: string;
  counter: InsightCounter | null;
}> = async (app, { db, now, timeZone, counter }) => {
  const reports = insightsRepository(db);
  const search = searchRepository(db);

  app.post(
    '/hits',
    {
      config: { permission: { action: 'create', resource: 'insight-hit' } },
      schema: { body: HitsInput, response: { 204: NoContent } },
    },
    async (request, reply) => {
      if (counter && !isBot(request)) {
        // Only for the search texts' threshold (distinct sessions): hashed under a secret of the day
        // held in memory, never stored (counter.ts).
        const session = `${request.ip}\n${request.headers['user-agent'] ?? ''}`;
        for (const hit of request.body.hits) {
          if (hit.kind === 'search') {
            const text = searchKey(hit.q);
            if (text)
              counter.search(
                {
                  text,
                  shops: hit.shops,
                  products: hit.products,
                  offers: hit.offers,
                  didYouMean: hit.didYouMean,
                },
                session,
              );
          } else if (hit.kind === 'dym_taken') {
            const text = searchKey(hit.q);
            if (text) counter.didYouMeanTaken(text, session);
          } else if (hit.kind === 'open_now') counter.hit('open_now');
          else counter.hit(hit.kind, hit.id);
        }
      }
      return reply.status(204).send();
    },
  );

  /** The asked range, or the last INSIGHTS_DEFAULT_DAYS days to today; refused when too long. */
  function rangeOf(query: z.output<typeof InsightsQuery>): { from: string; to: string } {
    const to = query.to ?? mallToday(timeZone, now());
    const from = query.from ?? addDays(to, -(INSIGHTS_DEFAULT_DAYS - 1));
    if (from > to)
      throw new HttpError(400, 'VALIDATION', 'From must be before To', { to: 'From must be before To' });
    if (addDays(from, INSIGHTS_MAX_DAYS) <= to) {
      const message = `A range of at most ${INSIGHTS_MAX_DAYS} days`;
      throw new HttpError(400, 'VALIDATION', message, { from: message });
    }
    return { from, to };
  }

  app.get(
    '/',
    {
      // The mall's numbers, not a shop's own: asked with no shop, a manager is refused at the guard
      // (and docs/api.md's route table says admin).
      config: { permission: { action: 'read', resource: 'insights', record: {} } },
      schema: { querystring: InsightsQuery, response: { 200: InsightsReport } },
    },
    async (request) => {
      const range = rangeOf(request.query);
      const { empty, ...report } = await reports.report(range);
      const today = mallToday(timeZone, now());
      const version = await app.catalogVersion();
      // What each text finds now, and the mall's closest words when still nothing: the search itself.
      const emptySearches = [];
      for (const row of empty) {
        const found = await search.search(row.text, { page: 1, pageSize: 1, today, version });
        const findsNow =
          (found.shops?.total ?? 0) + (found.products?.total ?? 0) + (found.offers?.total ?? 0);
        emptySearches.push({ text: row.text, searches: row.empty, closest: found.didYouMean, findsNow });
      }
      return { ...report, emptySearches };
    },
  );

  app.get(
    '/shops/:id',
    {
      config: { permission: { action: 'read', resource: 'insights' } },
      schema: {
        params: IdParams,
        querystring: InsightsQuery,
        response: { 200: ShopInsights, ...errorAnswers(404) },
      },
    },
    async (request) => {
      const shopId = request.params.id;
      // A manager of this shop, or the mall office; a manager of another shop is refused (403).
      await authorizeRecord(request, 'read', 'insights', async () => ({ shopId }));
      const { rows } = await db.$client.query('select 1 from shops where id = $1', [shopId]);
      if (rows.length === 0) throw shopNotFound();
      return reports.shop(rangeOf(request.query), shopId);
    },
  );
};

/** A mall date `days` later (or earlier), as YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
