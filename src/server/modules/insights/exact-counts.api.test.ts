// Insights' counts are exact over several servers and many connections, and keep nothing about who
// (docs/decisions/035): two app instances on one database, real HTTP, 50 connections at once.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { SESSION_COOKIE } from '../../auth/sessions';
import { type Directory, openDirectory } from '../../test/catalog-fixtures';
import { createTestApp, TEST_TIME_ZONE, type TestApp } from '../../test/harness';

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

let t: TestApp;
let d: Directory;
/** A second server on the same database, flushing on its own. */
let second: FastifyInstance;
const urls: string[] = [];

beforeAll(async () => {
  // Flushes every 50 ms: both servers add to the same rows many times while the traffic runs.
  t = await createTestApp({ insightsFlushMs: 50 });
  d = await openDirectory(t);
  second = await buildApp({
    maxEventLoopDelayMs: 0, // no event-loop check, as createTestApp (test/harness.ts)
    database: t.database,
    timeZone: TEST_TIME_ZONE,
    now: t.now,
    insightsFlushMs: 50,
  });
  for (const app of [t.app, second]) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    urls.push(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
  }
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

async function counted(metric: string, subject: string): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: string | null }>(
    'select sum(n) as n from insight_counts where metric = $1 and subject = $2',
    [metric, subject],
  );
  return Number(rows[0]?.n ?? 0);
}

describe('exact counts', () => {
  it('10,000 views sent over 2 servers by 50 connections at once add up to 10,000', async () => {
    const shop = await d.shop();
    const offer = await d.offer({ shopId: shop.id });
    const VIEWS = 10_000;
    const CONNECTIONS = 50;
    let next = 0;
    let refused = 0;
    // Each connection sends one view after another, to one server or the other in turn.
    async function connection(index: number) {
      while (next < VIEWS) {
        const i = next++;
        const response = await fetch(`${urls[(index + i) % 2]}/api/insights/hits`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
          body: JSON.stringify({
            hits: [
              { kind: 'shop_view', id: shop.id },
              // every other request: a view of the offer too
              ...(i % 2 === 0 ? [{ kind: 'offer_view', id: offer.id }] : []),
            ],
          }),
        });
        await response.arrayBuffer();
        if (response.status !== 204) refused += 1;
      }
    }
    const started = performance.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, index) => connection(index)));
    const flushesPerServer = Math.ceil((performance.now() - started) / 50) + 2;
    expect(refused).toBe(0);
    // What each server still holds is added at close (and what they flushed meanwhile is there already).
    await second.insights?.flush();
    await t.app.insights?.flush();
    expect(await counted('shop_view', shop.id)).toBe(VIEWS);
    expect(await counted('offer_view', offer.id)).toBe(VIEWS / 2);
    // Statements per flush (every 50 ms over the run, per server), not per view: at most one per flush,
    // however long a busy machine made the run (under 1,100 for 86 s beside the browser tests).
    const statements = (t.app.insights?.stats().statements ?? 0) + (second.insights?.stats().statements ?? 0);
    expect(statements).toBeLessThanOrEqual(2 * flushesPerServer);
    expect(statements).toBeLessThan(VIEWS);
  }, 180_000);
});

describe('nothing about who', () => {
  it('after a session with a known address, cookie and user agent, no column of any table holds them', async () => {
    const address = '203.0.113.77';
    const agent = `${BROWSER} SuperMallZqxv/9.9.9`;
    const cookieValue = 'tracer-cookie-5b1c9e';
    const shop = await d.shop();
    const hits = [
      { kind: 'shop_view', id: shop.id },
      { kind: 'tap_website', id: shop.id },
      { kind: 'open_now' },
      { kind: 'search', q: 'tracer lookup', shops: 0, products: 0, offers: 0, didYouMean: true },
      { kind: 'dym_taken', q: 'tracer lookup' },
    ];
    // As a visitor with a cookie of its own, and signed in (the session's cookie and account id).
    await t.app.inject({
      method: 'POST',
      url: '/api/insights/hits',
      payload: { hits },
      remoteAddress: address,
      headers: { 'user-agent': agent, cookie: `tracker=${cookieValue}` },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/insights/hits',
      payload: { hits },
      remoteAddress: address,
      headers: { 'user-agent': agent, cookie: `${d.user.headers.cookie}; tracker=${cookieValue}` },
    });
    // Two more sessions type the same text, so it is kept (the threshold) and its row is written.
    for (const other of ['203.0.113.78', '203.0.113.79'])
      await t.app.inject({
        method: 'POST',
        url: '/api/insights/hits',
        payload: { hits: [hits[3]] },
        remoteAddress: other,
        headers: { 'user-agent': agent },
      });
    await t.app.insights?.flush();
    expect(await counted('search', 'tracer lookup')).toBe(4);

    const sessionToken = d.user.headers.cookie?.split(`${SESSION_COOKIE}=`)[1] ?? '';
    const needles = [address, '203.0.113', agent, 'SuperMallZqxv', cookieValue, sessionToken];
    const { rows: tables } = await t.database.pool.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    );
    expect(tables.length).toBeGreaterThan(10);
    const found: string[] = [];
    for (const { table_name } of tables) {
      for (const needle of needles) {
        // Every column of every row, as text.
        const { rows } = await t.database.pool.query<{ n: number }>(
          `select count(*)::int as n from "${table_name}" t where strpos(t::text, $1) > 0`,
          [needle],
        );
        if ((rows[0]?.n ?? 0) > 0) found.push(`${table_name}: ${needle}`);
      }
    }
    expect(found).toEqual([]);
    // Nor the account: the counts name items and texts, never a person.
    const { rows: byAccount } = await t.database.pool.query<{ n: number }>(
      'select count(*)::int as n from insight_counts t where strpos(t::text, $1) > 0',
      [d.user.user.id],
    );
    expect(byAccount[0]?.n).toBe(0);
  });
});
