import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openEmbedded } from './client';

// PGlite runs a query synchronously on the thread that calls it: on the server's own thread, a
// one-second query would hold every request for that second. It runs on a worker thread instead
// (pglite-worker.ts), so the event loop keeps turning while the database works.
describe('the embedded database', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openEmbedded();
  });

  afterAll(async () => {
    await database?.close();
  });

  it('keeps the event loop turning while it runs a long query', async () => {
    await database.pool.query('select 1'); // connected before the clock starts
    let ticks = 0;
    let last = performance.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks += 1;
    }, 10);
    try {
      const started = performance.now();
      const answer = await database.pool.query('select pg_sleep(1)');
      const took = performance.now() - started;
      const ticksDuringQuery = ticks;
      expect(answer.rows).toHaveLength(1);
      expect(took).toBeGreaterThanOrEqual(900); // the database did sleep
      // Not one stall over half the query: on the server's thread the whole second would be one.
      expect(longestGap).toBeLessThan(500);
      // About 100 ticks of 10 ms fit in the second; on the server's thread there would be none (checked:
      // PGlite in-process gives 0 ticks during pg_sleep). 5 leaves room for a machine busy elsewhere.
      expect(ticksDuringQuery).toBeGreaterThanOrEqual(5);
    } finally {
      clearInterval(timer);
    }
  });
});
