// The benchmark's routes exist only with MALL_BENCH_ROUTES=on. One of them, PATCH /api/bench/products/:id,
// updates a product without the audit log (to measure what the log costs): nothing in production may
// reach it, so without the option it must not exist at all; with it, it is still admin-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../shared/product';
import { type Directory, openDirectory, unknownId } from './test/catalog-fixtures';
import { createTestApp, type TestApp } from './test/harness';

const auditRows = async (t: TestApp, entityId: string): Promise<number> =>
  Number(
    (await t.database.pool.query('select count(*) as n from audit_log where entity_id = $1', [entityId]))
      .rows[0].n,
  );

describe('without MALL_BENCH_ROUTES (production)', () => {
  let t: TestApp;
  let d: Directory;
  beforeAll(async () => {
    t = await createTestApp();
    d = await openDirectory(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('has no bench routes: the unaudited product update is 404, even for an admin, and changes nothing', async () => {
    const product = await d.product();
    const patch = await d.call(d.admin, 'PATCH', `/api/bench/products/${product.id}`, { price: 12.5 });
    expect(patch.statusCode, patch.body).toBe(404);
    expect((await d.row('products', product.id))?.price).toBe('10.00');
    for (const url of ['/api/bench/constant', '/api/bench/event-loop']) {
      expect((await d.call(d.admin, 'GET', url)).statusCode, url).toBe(404);
    }
    expect(t.app.printRoutes({ commonPrefix: false })).not.toContain('bench');
  });
});

describe('with MALL_BENCH_ROUTES=on', () => {
  let t: TestApp;
  let d: Directory;
  beforeAll(async () => {
    t = await createTestApp({ benchRoutes: true });
    d = await openDirectory(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('PUT /api/bench/insights pauses and resumes counting (the bench compares a cached read with it on and off)', async () => {
    const shop = await d.shop();
    const view = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/insights/hits',
        payload: { hits: [{ kind: 'shop_view', id: shop.id }] },
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' },
      });
    const stored = async () => {
      await t.app.insights?.flush();
      const { rows } = await t.database.pool.query(
        'select coalesce(sum(n), 0)::int as n from insight_counts where subject = $1',
        [shop.id],
      );
      return rows[0].n as number;
    };
    expect((await d.call(d.admin, 'PUT', '/api/bench/insights', { counting: false })).statusCode).toBe(204);
    await view();
    expect(await stored()).toBe(0);
    expect((await d.call(d.admin, 'PUT', '/api/bench/insights', { counting: true })).statusCode).toBe(204);
    await view();
    expect(await stored()).toBe(1);
    expect((await d.call(null, 'PUT', '/api/bench/insights', { counting: false })).statusCode).toBe(401);
  });

  it('PATCH /api/bench/products/:id answers as PATCH /api/products/:id does, but leaves no audit entry', async () => {
    const product = await d.product();
    const created = await auditRows(t, product.id); // the product's own creation
    const bench = await d.call(d.admin, 'PATCH', `/api/bench/products/${product.id}`, { price: 12.5 });
    expect(bench.statusCode, bench.body).toBe(200);
    expect(bench.json<Product>()).toEqual({ ...product, price: '12.50' });
    expect(await auditRows(t, product.id)).toBe(created);

    // The real route, for comparison: the same answer, and its entry.
    const real = await d.call(d.admin, 'PATCH', `/api/products/${product.id}`, { price: 13 });
    expect(real.statusCode, real.body).toBe(200);
    expect(real.json<Product>()).toEqual({ ...product, price: '13.00' });
    expect(await auditRows(t, product.id)).toBe(created + 1);
  });

  it('counts one query per pool query and one per connection taken (bench: queries per request)', async () => {
    const counted = async () =>
      (await d.call(d.admin, 'GET', '/api/bench/queries')).json<{ queries: number }>().queries;
    const before = await counted();
    await t.database.pool.query('select 1');
    await t.database.pool.query('select 2');
    const client = await t.database.pool.connect();
    await client.query('select 3'); // on a connection taken once: counted with the connect
    client.release();
    expect((await counted()) - before).toBe(3);
  });

  it('is guarded and validated like the real route', async () => {
    const product = await d.product();
    const url = `/api/bench/products/${product.id}`;
    expect((await d.call(null, 'PATCH', url, { price: 1 })).statusCode).toBe(401);
    expect((await d.call(d.user, 'PATCH', url, { price: 1 })).statusCode).toBe(403);
    expect((await d.call(d.admin, 'PATCH', url, { price: -1 })).statusCode).toBe(400);
    expect((await d.call(d.admin, 'PATCH', url, { price: 1, extra: true })).statusCode).toBe(400);
    expect(
      (await d.call(d.admin, 'PATCH', `/api/bench/products/${unknownId()}`, { price: 1 })).statusCode,
    ).toBe(404);
    expect((await d.row('products', product.id))?.price).toBe('10.00');
  });
});
