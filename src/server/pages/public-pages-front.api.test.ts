// The front door (docs/decisions/045), over real HTTP (app.inject never reaches it): a kept public page
// answered before Fastify routes the request gets exactly the answer the routed way gives — headers,
// validators, encodings, security headers, HSTS behind a trusted proxy — and what the routed request's
// hooks do still happens to it: the rate limit counts it in the same bucket as the API and refuses past
// the limit, the overload guard refuses it, a shop's view is counted (not a bot's). Nothing but a GET of
// a raw URL the router has led to a kept page is answered there: other spellings, HEAD, a page after a
// change take the routed way.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import type { PoolClient } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ShopDetail } from '../../shared/shop';
import { type Directory, openDirectory, uniqueName } from '../test/catalog-fixtures';
import { createTestApp, type TestApp } from '../test/harness';

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const LIMITS = { apiPerMinute: 1000, signInPerMinute: 60, registerPerHour: 100 };

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** As sent. */
  bytes: Buffer;
  /** Unpacked from its content-encoding. */
  text: string;
}

/** GET (or `method`) `path` from the listening app, the answer's bytes as they came. */
function send(app: TestApp['app'], path: string, headers: Record<string, string> = {}, method = 'GET') {
  const { port } = app.server.address() as AddressInfo;
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path, method, headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const encoding = response.headers['content-encoding'];
          const plain =
            encoding === 'br'
              ? zlib.brotliDecompressSync(bytes)
              : encoding === 'gzip'
                ? zlib.gunzipSync(bytes)
                : bytes;
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            bytes,
            text: plain.toString('utf8'),
          });
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** Sends it and says whether the front door answered it. */
async function sendCounted(t: TestApp, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const before = t.app.frontDoor?.answered() ?? 0;
  const answer = await send(t.app, path, headers, method);
  return { answer, atTheDoor: (t.app.frontDoor?.answered() ?? 0) - before === 1 };
}

/** The headers that differ from one answer to the next whichever way it goes. */
function stable(headers: http.IncomingHttpHeaders, { keepLength = true } = {}) {
  const { date, 'x-ratelimit-remaining': _remaining, 'x-ratelimit-reset': _reset, ...rest } = headers;
  if (!keepLength) delete rest['content-length'];
  return rest;
}

async function listening(t: TestApp) {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return t;
}

describe('the front door', () => {
  let t: TestApp;
  let d: Directory;
  let shop: ShopDetail;

  beforeAll(async () => {
    // Behind a proxy at 127.0.0.1 (MALL_TRUST_PROXY), rate limits on, counts flushed only when asked.
    t = await listening(
      await createTestApp({ rateLimits: LIMITS, trustProxy: '127.0.0.1', insightsFlushMs: 0 }),
    );
    d = await openDirectory(t);
    shop = await d.shop({ name: uniqueName('Door Shop') });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives a kept page the routed answer, byte for byte where the bytes cannot differ, in every encoding and behind the proxy', async () => {
    const cases: [string, Record<string, string>][] = [
      [`/shops/${shop.slug}`, { 'accept-encoding': 'gzip, deflate, br, zstd', 'user-agent': BROWSER }],
      [`/shops/${shop.slug}`, { 'accept-encoding': 'gzip' }],
      [`/shops/${shop.slug}`, {}],
      [`/shops/${shop.slug}`, { 'accept-encoding': 'br;q=0, gzip;q=0' }],
      ['/shops', { 'accept-encoding': 'gzip, br' }],
      [`/shops?category=${shop.categoryId}&utm_source=mail`, { 'accept-encoding': 'gzip' }],
      ['/offers', { 'accept-encoding': 'br' }],
      ['/floors', {}],
      // Behind the trusted proxy: HSTS, and the page names the forwarded host.
      [`/shops/${shop.slug}`, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'mall.example' }],
    ];
    for (const [path, headers] of cases) {
      // The page drawn and kept, under its own address.
      await send(t.app, path, headers);
      // A raw URL the router has not led anywhere yet: routed, and the page sent from its cache.
      const fresh = `${path}${path.includes('?') ? '&' : '?'}utm_campaign=${uniqueName('c').replace(/\W/g, '')}`;
      const routed = await sendCounted(t, fresh, headers);
      const front = await sendCounted(t, fresh, headers);
      const label = `${fresh} ${JSON.stringify(headers)}`;
      expect(routed.atTheDoor, label).toBe(false);
      expect(front.atTheDoor, label).toBe(true);
      expect(front.answer.status, label).toBe(200);
      expect(routed.answer.status, label).toBe(200);
      expect(front.answer.text, label).toBe(routed.answer.text);
      // brotli'd again at its best once asked twice: the same page, maybe fewer bytes.
      const br = front.answer.headers['content-encoding'] === 'br';
      expect(stable(front.answer.headers, { keepLength: !br }), label).toEqual(
        stable(routed.answer.headers, { keepLength: !br }),
      );
      if (!br) expect(front.answer.bytes.equals(routed.answer.bytes), label).toBe(true);
      expect(front.answer.headers['x-ratelimit-limit'], label).toBe(String(LIMITS.apiPerMinute));
      expect(Number(front.answer.headers['x-ratelimit-remaining']), label).toBe(
        Number(routed.answer.headers['x-ratelimit-remaining']) - 1,
      );
      expect(front.answer.headers['content-security-policy'], label).toContain("default-src 'self'");
      expect(front.answer.headers['strict-transport-security'], label).toBe(
        headers['x-forwarded-proto'] === 'https' ? 'max-age=15552000' : undefined,
      );
    }
    const behindProxy = await send(t.app, `/shops/${shop.slug}`, {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'mall.example',
    });
    expect(behindProxy.text).toContain(
      `<link rel="canonical" href="https://mall.example/shops/${shop.slug}" />`,
    );
    const direct = await send(t.app, `/shops/${shop.slug}`);
    expect(direct.text).toContain(`<link rel="canonical" href="http://127.0.0.1:`);
  });

  it('answers If-None-Match with the routed 304', async () => {
    const path = `/shops/${shop.slug}`;
    const { headers } = await send(t.app, path);
    const etag = String(headers.etag);
    const routed = await sendCounted(t, `${path}?ref=etag`, { 'if-none-match': etag });
    const front = await sendCounted(t, `${path}?ref=etag`, { 'if-none-match': etag });
    expect([routed.atTheDoor, front.atTheDoor]).toEqual([false, true]);
    for (const { answer } of [routed, front]) {
      expect(answer.status).toBe(304);
      expect(answer.bytes.length).toBe(0);
    }
    expect(stable(front.answer.headers)).toEqual(stable(routed.answer.headers));
    // Another validator gets the page.
    expect((await send(t.app, `${path}?ref=etag`, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('answers nothing but a GET of a raw URL the router led to a kept page: other spellings, HEAD and unknown shops take the routed way', async () => {
    const path = `/shops/${shop.slug}`;
    await send(t.app, path);
    await send(t.app, path);
    const spellings: [string, number][] = [
      [`/Shops/${shop.slug}`, 301],
      [`/shops/${shop.slug}/`, 301],
      [`//shops/${shop.slug}`, 404],
      [`/shops/${shop.id}`, 301],
      [`/shops/${shop.slug.toUpperCase()}`, 404],
      ['/shops/', 301],
      ['/shops/no-such-shop', 404],
    ];
    for (const [spelling, status] of spellings) {
      for (let i = 0; i < 3; i++) {
        const { answer, atTheDoor } = await sendCounted(t, spelling);
        expect(answer.status, spelling).toBe(status);
        expect(atTheDoor, spelling).toBe(false);
      }
    }
    const head = await sendCounted(t, path, {}, 'HEAD');
    expect(head.answer.status).toBe(200);
    expect(head.answer.bytes.length).toBe(0);
    expect(head.atTheDoor).toBe(false);
  });

  it('sends no page kept from before a change: a renamed shop moves, a changed one shows its change', async () => {
    const moving = await d.shop({ name: uniqueName('Old Name') });
    const oldPath = `/shops/${moving.slug}`;
    await send(t.app, oldPath);
    expect((await sendCounted(t, oldPath)).atTheDoor).toBe(true);
    const renamed = uniqueName('New Name');
    const changed = await d.call(d.admin, 'PATCH', `/api/shops/${moving.id}`, { name: renamed });
    expect(changed.statusCode).toBe(200);
    const { answer, atTheDoor } = await sendCounted(t, oldPath);
    expect(atTheDoor).toBe(false);
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(`/shops/${changed.json().slug}`);
    const moved = await send(t.app, String(answer.headers.location));
    expect(moved.text).toContain(renamed);

    // A change that keeps the address: the same learnt URL shows it at once.
    const newPath = String(answer.headers.location);
    await send(t.app, newPath);
    expect((await sendCounted(t, newPath)).atTheDoor).toBe(true);
    const described = `Now with ${uniqueName('lanterns')}`;
    expect(
      (await d.call(d.admin, 'PATCH', `/api/shops/${moving.id}`, { description: described })).statusCode,
    ).toBe(200);
    const after = await sendCounted(t, newPath);
    expect(after.atTheDoor).toBe(false);
    expect(after.answer.text).toContain(described);
    expect((await sendCounted(t, newPath)).atTheDoor).toBe(true);
  });

  it("counts a shop's view for each page it sends, and none for a bot or a client without a user agent", async () => {
    const viewed = await d.shop({ name: uniqueName('Viewed') });
    const path = `/shops/${viewed.slug}`;
    await send(t.app, path, { 'user-agent': BROWSER });
    const counted = async () => {
      await t.app.insights?.flush();
      const { rows } = await t.database.pool.query<{ n: string | null }>(
        "select sum(n) as n from insight_counts where metric = 'shop_view' and subject = $1",
        [viewed.id],
      );
      return Number(rows[0]?.n ?? 0);
    };
    const before = await counted();
    let atTheDoor = 0;
    for (let i = 0; i < 5; i++)
      if ((await sendCounted(t, path, { 'user-agent': BROWSER })).atTheDoor) atTheDoor++;
    for (const agent of ['Googlebot/2.1 (+http://www.google.com/bot.html)', ''])
      if ((await sendCounted(t, path, agent ? { 'user-agent': agent } : {})).atTheDoor) atTheDoor++;
    expect(atTheDoor).toBe(7);
    expect(await counted()).toBe(before + 5);
  });
});

describe('the front door and the hooks it stands in for', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("counts a page in its visitor's one bucket with the API's requests, and past the limit the routed way refuses it with the limiter's 429", async () => {
    const limits = { ...LIMITS, apiPerMinute: 8 };
    // Behind a proxy: the visitor is the X-Forwarded-For address, a bucket of its own.
    t = await listening(await createTestApp({ rateLimits: limits, trustProxy: true }));
    const d = await openDirectory(t);
    const shop = await d.shop();
    const path = `/shops/${shop.slug}`;
    // The page drawn and kept, by another visitor.
    expect((await send(t.app, path, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(200);
    const visitor = { 'x-forwarded-for': '198.51.100.23' };
    const seen: { status: number; remaining: unknown; atTheDoor: boolean }[] = [];
    for (let i = 0; i < 6; i++) {
      const { answer, atTheDoor } = await sendCounted(t, path, visitor);
      seen.push({ status: answer.status, remaining: answer.headers['x-ratelimit-remaining'], atTheDoor });
    }
    // The API's reads count in the same bucket.
    const api = await send(t.app, '/api/categories', visitor);
    seen.push({ status: api.status, remaining: api.headers['x-ratelimit-remaining'], atTheDoor: false });
    for (let i = 0; i < 3; i++) {
      const { answer, atTheDoor } = await sendCounted(t, path, visitor);
      seen.push({ status: answer.status, remaining: answer.headers['x-ratelimit-remaining'], atTheDoor });
      if (answer.status === 429) expect(JSON.parse(answer.text).error.code).toBe('RATE_LIMITED');
    }
    expect(seen.map(({ status }) => status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    expect(seen.slice(0, 8).map(({ remaining }) => remaining)).toEqual([
      '7',
      '6',
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
    ]);
    // Sent at the door (one may go the routed way, as when the catalogue version is being read again).
    expect(seen.slice(0, 6).filter(({ atTheDoor }) => atTheDoor).length).toBeGreaterThanOrEqual(5);
    expect(seen.slice(8).some(({ atTheDoor }) => atTheDoor)).toBe(false);
    // Another visitor is not held back by this one.
    expect((await sendCounted(t, path, { 'x-forwarded-for': '198.51.100.24' })).answer.status).toBe(200);
  });

  it('is refused at once while queries queue for the database (the overload guard), and sent at the door again after', async () => {
    t = await listening(await createTestApp({ maxDbQueue: 1 }));
    const d = await openDirectory(t);
    const shop = await d.shop();
    const path = `/shops/${shop.slug}`;
    await send(t.app, path);
    expect((await sendCounted(t, path)).atTheDoor).toBe(true);
    const pool = t.database.pool;
    const held: PoolClient[] = [];
    for (let i = 0; i < (pool.options.max ?? 10); i++) held.push(await pool.connect());
    const waiting = pool.query('select 1');
    try {
      while (pool.waitingCount < 1) await sleep(5);
      const { answer, atTheDoor } = await sendCounted(t, path);
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.text).error.code).toBe('OVERLOADED');
      expect(atTheDoor).toBe(false);
    } finally {
      for (const client of held) client.release();
    }
    await waiting;
    const after = await sendCounted(t, path);
    expect(after.answer.status).toBe(200);
    expect(after.atTheDoor).toBe(true);
  });

  it('is not there with the public directory off', async () => {
    t = await listening(await createTestApp({ publicDirectory: false }));
    expect(t.app.frontDoor).toBeNull();
    expect((await send(t.app, '/shops')).status).toBe(404);
  });
});
