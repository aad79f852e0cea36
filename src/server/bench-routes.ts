import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Product, ProductPatch } from '../shared/product';
import { requireUser } from './auth/guards';
import type { Db } from './db/client';
import { errorAnswers, HttpError, NoContent } from './errors';
import { watchLoopStalls } from './lib/loop-stalls';
import { mallToday } from './lib/mall-time';
import type { InsightCounter } from './modules/insights/counter';
import { productNotFound, productRepository, productWriteError } from './modules/products/repository';
import type { WriteTx } from './write-path';

/** PATCH /api/products/:id's own params schema (not exported by its module). */
const IdParams = z.strictObject({ id: z.uuid('Product not found') });

/**
 * Only with MALL_BENCH_ROUTES=on (npm run bench). `/constant` is the framework ceiling: the same
 * plugins and the same signed-in check as a directory read, then a constant answer. `/queries` counts
 * what the app has asked the database since it started. `/event-loop`
 * reports the event loop's delay since the previous call (and starts a new measurement), and its longest
 * blocked time: a stall less the thread's wait for a core (lib/loop-stalls.ts), with the longest stalls.
 * `PATCH /products/:id` is the product update without its audit entry: see there.
 */
export const benchRoutes: FastifyPluginAsyncZod<{
  db: Db;
  now: () => Date;
  timeZone: string;
  insights?: InsightCounter | null;
}> = async (app, { db, now, timeZone, insights }) => {
  // The histogram records the time between ticks of a timer of this period (Node measures the interval,
  // not the lateness): a stall of S ms shows as S to S + 1 ms. (At 5 ms it read up to 5 ms high.)
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  // The same stalls split into the wait for a core and the loop's own blocked time (lib/loop-stalls.ts).
  const stalls = watchLoopStalls();
  app.addHook('onClose', async () => {
    histogram.disable();
    stalls.stop();
  });
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;

  app.get('/constant', { onRequest: requireUser }, async () => ({ ok: true, mall: 'Super Mall' }));

  // Queries the app has sent the database (pool queries and connections taken for a transaction),
  // so the benchmark can report queries per request of a row (docs/decisions/027: ≈ 0 on cached reads).
  const pool = db.$client;
  let queries = 0;
  // pool.query takes its connection through pool.connect, synchronously: that connect is the same query,
  // not a second one (counted as two, the search row read 2.0 queries per search).
  let inQuery = false;
  const countCalls = <K extends 'query' | 'connect'>(name: K) => {
    const original = pool[name] as (...args: unknown[]) => unknown;
    pool[name] = function counted(this: unknown, ...args: unknown[]) {
      if (inQuery) return original.apply(this, args);
      queries++;
      if (name !== 'query') return original.apply(this, args);
      inQuery = true;
      try {
        return original.apply(this, args);
      } finally {
        inQuery = false;
      }
    } as (typeof pool)[K];
    app.addHook('onClose', async () => {
      pool[name] = original as (typeof pool)[K];
    });
  };
  countCalls('query');
  countCalls('connect');
  app.get('/queries', async () => ({ queries }));

  // Insights' counting paused or resumed (docs/decisions/035): the benchmark's rows of a cached read
  // with counting on and off, in the same run, on the same server.
  app.put(
    '/insights',
    {
      onRequest: requireUser,
      schema: {
        body: z.strictObject({ counting: z.boolean() }),
        response: { 204: NoContent, ...errorAnswers(401) },
      },
    },
    async (request, reply) => {
      insights?.setPaused(!request.body.counting);
      return reply.status(204).send();
    },
  );

  app.get('/event-loop', async () => {
    const split = stalls.take();
    const figures = {
      maxMs: ms(histogram.max),
      p99Ms: ms(histogram.percentile(99)),
      meanMs: ms(histogram.mean),
      samples: histogram.count,
      blockedMaxMs: split.maxBlockedMs,
      stalls: split.stalls,
      beganAtMs: split.beganAtMs,
      // performance.now()'s zero on the monotonic clock (ms), which --cpu-prof's timestamps (µs) count on.
      clockOriginMs: Number(process.hrtime.bigint()) / 1e6 - performance.now(),
    };
    histogram.reset();
    return figures;
  });

  // What PATCH /api/products/:id does (modules/products/routes.ts) — the same guard, params and body
  // schemas, the same repository update in one transaction, answered with its read — but WITHOUT
  // the audit entry: no performWrite, so no snapshots, no changed-fields diff and no audit_log insert.
  // It exists ONLY so the benchmark can measure what the log costs an admin write (issue 13's target:
  // with the log, at least 90% of the throughput without it). It is registered only with
  // MALL_BENCH_ROUTES=on (bench-routes.api.test.ts checks it is absent otherwise); the cast to WriteTx
  // below is the one write outside the write path, on purpose, and must never be copied into a module.
  const products = productRepository(db);
  app.patch(
    '/products/:id',
    {
      config: { permission: { action: 'update', resource: 'product' } },
      schema: { params: IdParams, body: ProductPatch, response: { 200: Product, ...errorAnswers(404, 409) } },
    },
    async (request) => {
      const { id } = request.params;
      const today = () => mallToday(timeZone, now());
      try {
        return await db.transaction(async (tx) => {
          const changed = await products.update(tx as WriteTx, id, request.body, today());
          if (!changed) throw productNotFound();
          return changed.after;
        });
      } catch (error) {
        // As performWrite maps them (the common 409/400 mapping aside: a price change meets neither).
        if (error instanceof HttpError) throw error;
        throw productWriteError(error) ?? error;
      }
    },
  );
};
