// The read cache (read-cache.ts) must never hide a write: through the API, straight into the database
// (another server, a script), or across midnight. Also: it really serves from memory, and ETags / 304.
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Offer } from '../shared/offer';
import type { Product } from '../shared/product';
import { buildApp } from './app';
import { type Directory, openDirectory, uniqueName } from './test/catalog-fixtures';
import { createTestApp, TEST_TIME_ZONE, type TestApp } from './test/harness';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

const read = async (url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
  t.app.inject({ method: 'GET', url, headers: { ...d.user.headers, ...headers } });
const json = async (url: string) => {
  const response = await read(url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const catalogVersion = async (): Promise<number> =>
  Number((await t.database.pool.query('select version from catalog_version')).rows[0].version);

describe('the read cache', () => {
  it('answers a repeated read from memory (a change the triggers do not see stays hidden)', async () => {
    const shop = await d.shop({ description: 'Before' });
    expect((await json(`/api/shops/${shop.id}`)).description).toBe('Before');
    // Only to prove the cache is used: a change made with the version trigger switched off (the
    // description: a rename would keep the old slug as a redirect, whose own trigger raises the version).
    const pool = t.database.pool;
    await pool.query('alter table shops disable trigger shops_bump_catalog_version');
    try {
      await pool.query("update shops set description = 'Changed Behind The Cache' where id = $1", [shop.id]);
    } finally {
      await pool.query('alter table shops enable trigger shops_bump_catalog_version');
    }
    expect((await json(`/api/shops/${shop.id}`)).description).toBe('Before');
    // Any directory change (here another entity) makes every cached answer invalid.
    await d.category();
    expect((await json(`/api/shops/${shop.id}`)).description).toBe('Changed Behind The Cache');
  });

  it('sends a cached answer exactly as the first: same bytes, same headers', async () => {
    const shop = await d.shop({ name: uniqueName('Café Ünïcode ☕') });
    const first = await read(`/api/shops/${shop.id}`);
    const again = await read(`/api/shops/${shop.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.json().name).toBe(shop.name);
    for (const header of ['content-type', 'content-length', 'etag', 'cache-control'])
      expect(again.headers[header], header).toBe(first.headers[header]);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('sends a large cached answer compressed to a client that takes br or gzip, the same bytes once undone', async () => {
    for (let i = 0; i < 6; i++)
      await d.shop({ description: `${uniqueName('A long description')} `.repeat(8) });
    const url = '/api/shops?pageSize=50';
    const plain = await read(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers.vary).toContain('accept-encoding');
    for (const [accept, coding, undo] of [
      ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
    ] as const) {
      // the first hit makes the compressed copy, the next sends it: both the same
      for (let i = 0; i < 2; i++) {
        const answer = await read(url, { 'accept-encoding': accept });
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-encoding'], accept).toBe(coding);
        expect(answer.headers.vary).toContain('accept-encoding');
        expect(answer.rawPayload.length).toBeLessThan(plain.rawPayload.length);
        expect(undo(answer.rawPayload).equals(plain.rawPayload)).toBe(true);
      }
    }
    // asked for again, the brotli copy is made once more at brotli's best, off the event loop: smaller,
    // the same bytes once undone (lib/better-brotli.ts)
    const firstBr = (await read(url, { 'accept-encoding': 'br' })).rawPayload;
    let best = firstBr;
    for (const deadline = Date.now() + 30_000; best.length >= firstBr.length && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      best = (await read(url, { 'accept-encoding': 'br' })).rawPayload;
    }
    expect(best.length).toBeLessThan(firstBr.length);
    expect(zlib.brotliDecompressSync(best).equals(plain.rawPayload)).toBe(true);
    // a client that takes no coding (or refuses them) gets it plain
    for (const accept of ['identity', 'br;q=0, gzip;q=0']) {
      const answer = await read(url, { 'accept-encoding': accept });
      expect(answer.headers['content-encoding'], accept).toBeUndefined();
      expect(answer.rawPayload.equals(plain.rawPayload)).toBe(true);
    }
    // a small answer goes as it is
    const shop = await d.shop();
    await read(`/api/shops/${shop.id}`);
    const small = await read(`/api/shops/${shop.id}`, { 'accept-encoding': 'br' });
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('shows every kind of API write on the next read', async () => {
    const category = await d.category();
    const shop = await d.shop({ categoryId: category.id });
    const product = await d.product({ shopId: shop.id });
    const offer = await d.offer({ shopId: shop.id });
    const shopsUrl = `/api/shops?categoryId=${category.id}`;
    const productsUrl = `/api/products?shopId=${shop.id}`;
    const offersUrl = `/api/offers?shopId=${shop.id}&active=true`;
    // Fill the cache.
    for (const url of [shopsUrl, productsUrl, offersUrl, '/api/categories', `/api/products/${product.id}`])
      await json(url);

    const newName = uniqueName('Renamed Category');
    expect(
      (await d.call(d.admin, 'PATCH', `/api/categories/${category.id}`, { name: newName })).statusCode,
    ).toBe(200);
    expect((await json(shopsUrl)).items[0].category).toBe(newName);
    expect((await json('/api/categories')).items.map((c: { name: string }) => c.name)).toContain(newName);

    expect((await d.call(d.admin, 'PATCH', `/api/products/${product.id}`, { price: 99.5 })).statusCode).toBe(
      200,
    );
    expect(((await json(productsUrl)).items[0] as Product).price).toBe('99.50');
    expect(((await json(`/api/products/${product.id}`)) as Product).price).toBe('99.50');

    expect(
      (await d.call(d.admin, 'PATCH', `/api/products/${product.id}`, { offerId: offer.id })).statusCode,
    ).toBe(200);
    expect(((await json(productsUrl)).items[0] as Product).offerPrice).toBe('89.55');

    expect((await d.call(d.admin, 'DELETE', `/api/offers/${offer.id}`)).statusCode).toBe(204);
    expect((await json(offersUrl)).items).toEqual([]);
    expect(((await json(productsUrl)).items[0] as Product).offer).toBeNull();

    expect((await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}`)).statusCode).toBe(204);
    expect((await json(shopsUrl)).total).toBe(0);
    expect((await read(`/api/products/${product.id}`)).statusCode).toBe(404);
  });

  it('shows a change made straight in the database (another server, a script) once its notification is in', async () => {
    const shop = await d.shop();
    const url = `/api/products?shopId=${shop.id}`;
    expect((await json(url)).total).toBe(0);
    await t.database.pool.query(
      "insert into products (shop_id, name, price) values ($1, 'Straight In', '5.00')",
      [shop.id],
    );
    // The commit's notification (decision 027) arrives within milliseconds.
    await t.settle();
    const page = await json(url);
    expect(page.total).toBe(1);
    expect(page.items[0].name).toBe('Straight In');
  });

  it('raises the version once per committed change, also for a delete that cascades', async () => {
    const shop = await d.shop();
    await d.product({ shopId: shop.id });
    await d.offer({ shopId: shop.id });
    const before = await catalogVersion();
    expect((await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}`)).statusCode).toBe(204);
    expect(await catalogVersion()).toBe(before + 1);
    // A refused write changes nothing.
    const refused = await d.call(d.admin, 'POST', '/api/categories', { name: '' });
    expect(refused.statusCode).toBe(400);
    expect(await catalogVersion()).toBe(before + 1);
  });

  it('follows the mall\u2019s date: an offer ending today is gone from the active list tomorrow', async () => {
    const shop = await d.shop();
    const offer: Offer = await d.offer({ shopId: shop.id, startDate: d.today(), endDate: d.today() });
    const url = `/api/offers?shopId=${shop.id}&active=true`;
    expect((await json(url)).items.map((o: Offer) => o.id)).toEqual([offer.id]);
    t.advanceClock(24 * 60 * 60 * 1000);
    try {
      expect((await json(url)).items).toEqual([]);
    } finally {
      t.advanceClock(-24 * 60 * 60 * 1000);
    }
  });

  it('answers If-None-Match with 304 until the directory changes', async () => {
    const shop = await d.shop();
    const url = `/api/shops/${shop.id}`;
    const first = await read(url);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');

    const again = await read(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);

    await d.call(d.admin, 'PATCH', url, { name: uniqueName('Changed') });
    const changed = await read(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('keeps the sign-in check in front of the cache: a visitor reads a cached answer only while the directory is public', async () => {
    const url = '/api/categories';
    const cached = await read(url);
    expect(cached.statusCode).toBe(200);
    const conditional = { 'if-none-match': cached.headers.etag as string };
    // The public directory (docs/decisions/034): the same answer for everyone, a visitor's 304 too.
    const visitor = await t.app.inject({ method: 'GET', url, headers: conditional });
    expect(visitor.statusCode).toBe(304);
    expect((await t.app.inject({ method: 'GET', url })).json()).toEqual(cached.json());
    // MALL_PUBLIC_DIRECTORY=off: the cache holds the answer a signed-in person read, a visitor gets 401.
    const closed = await buildApp({
      maxEventLoopDelayMs: 0, // no event-loop check, as createTestApp (test/harness.ts)
      database: t.database,
      timeZone: TEST_TIME_ZONE,
      now: t.now,
      publicDirectory: false,
    });
    try {
      const signedIn = await closed.inject({ method: 'GET', url, headers: d.user.headers });
      expect(signedIn.statusCode).toBe(200);
      expect(
        (
          await closed.inject({
            method: 'GET',
            url,
            headers: { ...d.user.headers, 'if-none-match': signedIn.headers.etag as string },
          })
        ).statusCode,
      ).toBe(304);
      for (const headers of [{ 'if-none-match': signedIn.headers.etag as string }, {}]) {
        const anonymous = await closed.inject({ method: 'GET', url, headers });
        expect(anonymous.statusCode).toBe(401);
        expect(anonymous.body).not.toContain('items');
      }
    } finally {
      await closed.close();
    }
  });

  it('caches no error: a missing shop stays 404, without an ETag', async () => {
    const response = await read('/api/shops/00000000-0000-4000-8000-000000000000');
    expect(response.statusCode).toBe(404);
    expect(response.headers.etag).toBeUndefined();
  });
});
