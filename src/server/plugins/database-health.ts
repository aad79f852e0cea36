// The health check load balancers poll: 200 while the database answers a query, else 503.
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/client';

/**
 * GET /api/health. Its route config `probe` keeps it out of the session lookup and the rate limits
 * (lib/request-route.ts `isProbe`); without a schema, it is not in the API reference.
 */
export const databaseHealthRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get('/api/health', { config: { probe: true } }, async (_request, reply) => {
    try {
      await db.execute(sql`select 1`);
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
};
