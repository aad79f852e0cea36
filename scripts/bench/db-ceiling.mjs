#!/usr/bin/env node
// The database ceiling (scripts/bench/run.mjs, row 2): the shop-list route's two queries from
// --connections concurrent clients, with no HTTP, over a pool of as many connections.
//
//   node --import tsx scripts/bench/db-ceiling.mjs (--database-url URL | --data-dir MALL_DATA_DIR) [--duration 10]
//
// --data-dir: the embedded database in that MALL_DATA_DIR (no server may be using it): its PostgreSQL is
// started here (src/server/db/embedded-postgres.ts) and stopped at the end. Prints one JSON line.
import { parseArgs } from 'node:util';
import { drizzle } from 'drizzle-orm/node-postgres';
import { openEmbedded, openPostgres } from '../../src/server/db/client.ts';
import { categories, floors } from '../../src/server/db/schema.ts';
import { shopRepository } from '../../src/server/modules/shops/repository.ts';

const { values: options } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    'data-dir': { type: 'string' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    'page-size': { type: 'string', default: '12' },
  },
});
const durationMs = Number(options.duration) * 1000;
const warmupMs = Number(options.warmup) * 1000;
const connections = Number(options.connections);
const pageSize = Number(options['page-size']);

let database;
if (options['database-url']) {
  database = await openPostgres(options['database-url'], connections);
} else if (options['data-dir']) {
  database = await openEmbedded(options['data-dir'], { maxConnections: connections });
} else {
  console.error('db-ceiling: give --database-url or --data-dir');
  process.exit(2);
}
const { db } = database;

const categoryIds = (await db.select({ id: categories.id }).from(categories)).map((row) => row.id);
const floorIds = (await db.select({ id: floors.id }).from(floors)).map((row) => row.id);
const pick = (items) => items[Math.floor(Math.random() * items.length)];

/** The route's own function (src/server/modules/shops/repository.ts, GET /): its page and count queries. */
const shopQueries = shopRepository(db);
const routeQueries = (categoryId, floorId, page) => [
  shopQueries.list({ categoryId, floorId, page, pageSize }),
];

// The SQL it runs, for the report: one call through a Drizzle instance that logs its queries.
const logged = [];
await shopRepository(drizzle(database.pool, { logger: { logQuery: (query) => logged.push(query) } })).list({
  categoryId: categoryIds[0],
  floorId: floorIds[0],
  page: 1,
  pageSize,
});
const [pageSql, countSql] = logged;

/** Runs route-equivalents from `connections` loops for `ms`; latencies recorded when `record`. */
async function load(ms, record) {
  const latencies = [];
  let errors = 0;
  let firstError;
  const deadline = performance.now() + ms;
  const loop = async () => {
    while (performance.now() < deadline) {
      // Page 1 mostly, like a shopper; page 2 now and then (often empty: ~8 shops per category and floor).
      const queries = routeQueries(pick(categoryIds), pick(floorIds), Math.random() < 0.2 ? 2 : 1);
      const started = performance.now();
      try {
        await Promise.all(queries);
        if (record) latencies.push(performance.now() - started);
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  return { latencies, errors, firstError, seconds: (performance.now() - started) / 1000 };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

try {
  if (warmupMs > 0) await load(warmupMs, false);
  const { latencies, errors, firstError, seconds } = await load(durationMs, true);
  const sorted = Float64Array.from(latencies).sort();
  const round = (value) => (value === null ? null : Math.round(value * 100) / 100);
  console.log(
    JSON.stringify({
      kind: database.kind,
      connections,
      poolSize: connections,
      seconds: round(seconds),
      routes: latencies.length,
      routesPerS: round(latencies.length / seconds),
      queriesPerS: round((2 * latencies.length) / seconds),
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      errors,
      firstError,
      sql: [pageSql, countSql],
    }),
  );
} finally {
  await database.close();
}
