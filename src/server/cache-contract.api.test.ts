// The cache contract (read-cache.ts, docs/decisions/013): every cacheable route declares what its answer
// varies with, and the cache keys on exactly that. Checked from the route table: each cacheable route is
// asked by different people and on two mall dates, through the cached app and through an app without a
// cache on the same database; the answers must agree. A route that varied by person or by date but
// declared less would hand out a stale or someone else's answer here and fail.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyWeek, everyDay } from '../shared/hours';
import { zoneOffsets } from '../shared/hours-status';
import { buildApp } from './app';
import { mallToday } from './lib/mall-time';
import { assertCacheable, registerReadCache } from './read-cache';
import { type Directory, openDirectory } from './test/catalog-fixtures';
import { createTestApp, registerAs, TEST_TIME_ZONE, type TestApp } from './test/harness';

/** The list's "open at" parameter for an instant: UTC, to the minute. */
const openAt = (at: Date) => `${at.toISOString().slice(0, 16)}Z`;

let t: TestApp;
let d: Directory;
let uncached: Awaited<ReturnType<typeof buildApp>>;
/** Who asks: signed-in people, and a visitor (no cookie), who reads the public directory (docs/decisions/034). */
let people: { label: string; headers: Record<string, string> }[];
const ids: Record<string, string> = {};
let slug = '';

beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
  // The same database and clock, no read cache: what every answer should be.
  uncached = await buildApp({
    database: t.database,
    timeZone: TEST_TIME_ZONE,
    now: t.now,
    readCache: false,
    maxEventLoopDelayMs: 0, // no event-loop check, as createTestApp (test/harness.ts)
  });
  await uncached.ready();
  people = [
    ...[d.user, d.admin, await registerAs(t.app, 'user')].map((person) => ({
      label: person.user.email,
      headers: person.headers,
    })),
    { label: 'a visitor', headers: {} },
  ];
  const shop = await d.shop({ hours: everyDay('00:00', '24:00') });
  // An offer that ends today: tomorrow it is expired, and its product loses the discounted price.
  const offer = await d.offer({ shopId: shop.id, startDate: d.day(-3), endDate: d.today() });
  const upcoming = await d.offer({ shopId: shop.id, startDate: d.day(1), endDate: d.day(5) });
  const product = await d.product({ shopId: shop.id, offerId: offer.id, price: 100 });
  slug = shop.slug;
  ids.endingOffer = offer.id;
  ids.shopFloor = shop.floorId;
  Object.assign(ids, {
    shops: shop.id,
    offers: upcoming.id,
    products: product.id,
    categories: (await d.category()).id,
    floors: (await d.floor()).id,
    amenities: (
      await d.call(d.admin, 'POST', '/api/amenities', { floorId: (await d.floor()).id, kind: 'lift' })
    ).json().id,
    // A weekly event that started two days ago: its occurrences and "upcoming" move with the mall date.
    events: (
      await d.call(d.admin, 'POST', '/api/events', {
        title: 'Weekly workshop',
        shopId: shop.id,
        placeKind: 'shop',
        placeId: shop.id,
        allDay: false,
        startDate: d.day(-2),
        startTime: '10:00',
        endDate: d.day(-2),
        endTime: '11:00',
        tags: ['kids'],
        repeat: { freq: 'weekly', count: 3 },
      })
    ).json().id,
  });
});
afterAll(async () => {
  await uncached?.close();
  await t?.close();
});

/** A concrete URL for a route pattern: `:id` filled with a record of its kind; lists with a filter too. */
function urlsFor(pattern: string): string[] {
  const resource = pattern.split('/')[2] ?? '';
  // The search: every group, and the offers alone (which offers run changes overnight).
  if (resource === 'search') return [`${pattern}?q=offer`, `${pattern}?q=offer&kind=offers`];
  // Events: one event's page data and file, the feeds whole and per tag, the list and a later window.
  if (pattern === '/api/events/:id/calendar.ics') return [pattern.replace(':id', ids.events ?? '')];
  if (pattern === '/api/events/calendar.ics' || pattern === '/api/events/feed.json')
    return [pattern, `${pattern}?tag=kids`, `${pattern}?shopId=${ids.shops}`];
  if (pattern === '/api/events') return [pattern, `${pattern}?tag=kids&from=${d.day(1)}`];
  if (pattern === '/api/events/overview') return [pattern, `${pattern}?tag=kids`, `${pattern}?page=2`];
  if (pattern.endsWith('/:id')) return [pattern.replace(':id', ids[resource] ?? '')];
  // A shop by its public address (docs/decisions/034).
  if (pattern.endsWith('/:slug')) return [pattern.replace(':slug', slug)];
  if (resource === 'mall-hours' || resource === 'mall') return [pattern];
  // The whole mall's guide, and one floor's (a shop page's plan).
  if (resource === 'floor-guide') return [pattern, `${pattern}?floor=${ids.shopFloor}`];
  // "Open now": the instant is in the URL (docs/decisions/017), so the answer is the URL's, not the clock's.
  if (resource === 'shops') return [pattern, `${pattern}?page=1`, `${pattern}?openAt=${openAt(t.now())}`];
  const filtered = resource === 'offers' ? `${pattern}?active=true` : `${pattern}?page=1`;
  return [pattern, filtered];
}

describe('the cache contract', () => {
  it('gives every cacheable route the same answer as no cache, for every person and on the next mall day', async () => {
    const cacheable = t.app.routeTable.filter((route) => route.cache);
    expect(cacheable.map((route) => route.url).sort()).toEqual(
      [
        '/api/amenities',
        '/api/amenities/:id',
        '/api/categories',
        '/api/categories/:id',
        '/api/floor-guide',
        '/api/floors',
        '/api/floors/:id',
        '/api/events',
        '/api/events/:id',
        '/api/events/:id/calendar.ics',
        '/api/events/calendar.ics',
        '/api/events/feed.json',
        '/api/events/overview',
        '/api/mall-hours',
        '/api/mall/profile',
        '/api/offers',
        '/api/offers/:id',
        '/api/products',
        '/api/products/:id',
        '/api/search',
        '/api/shops',
        '/api/shops/:id',
        '/api/shops/by-slug/:slug',
      ].sort(),
    );
    const compare = async (moment: string) => {
      for (const route of cacheable)
        for (const url of urlsFor(route.url))
          for (const person of people) {
            const cached = await t.app.inject({ url, headers: person.headers });
            // A loaded machine may shed a request (503 + Retry-After, overload.ts): ask again, as a client does.
            let fresh = await uncached.inject({ url, headers: person.headers });
            for (let retry = 0; retry < 20 && fresh.statusCode === 503; retry++) {
              await new Promise((resolve) => setTimeout(resolve, 250));
              fresh = await uncached.inject({ url, headers: person.headers });
            }
            expect(fresh.statusCode, `${url} ${moment}, no cache`).toBe(200);
            expect(cached.statusCode, `${url} ${moment}`).toBe(200);
            // A calendar feed is text (its content type kept by the cache); the rest JSON.
            expect(cached.headers['content-type'], url).toBe(fresh.headers['content-type']);
            if (url.includes('.ics')) expect(cached.body, `${url} ${moment}`).toBe(fresh.body);
            else expect(cached.json(), `${url} as ${person.label} ${moment}`).toEqual(fresh.json());
          }
    };
    await compare('today');
    const today = mallToday(TEST_TIME_ZONE, t.now());
    t.advanceClock(24 * 60 * 60 * 1000);
    try {
      expect(mallToday(TEST_TIME_ZONE, t.now())).not.toBe(today);
      await compare('the next day');
      // And the decision really changed overnight (so the comparison above could have failed).
      const product = (
        await t.app.inject({ url: `/api/products/${ids.products}`, headers: d.user.headers })
      ).json();
      expect(product.offerPrice).toBeNull();
      const offer = (
        await t.app.inject({ url: `/api/offers/${ids.offers}`, headers: d.user.headers })
      ).json();
      expect(offer.status).toBe('active');
      const found = (
        await t.app.inject({ url: '/api/search?q=offer&kind=offers', headers: d.user.headers })
      ).json();
      expect(found.offers.items.map((item: { id: string }) => item.id)).toEqual([ids.offers]);
    } finally {
      t.advanceClock(-24 * 60 * 60 * 1000);
    }
  });

  it('refuses at start-up a route that declares a variance the cache cannot key on', async () => {
    for (const varies of [['catalog', 'user'], ['catalog', 'clock'], ['mallDate']] as const) {
      expect(() => assertCacheable('GET /x', { varies })).toThrow();
      const app = Fastify();
      app.decorateRequest('catalogVersion', null);
      registerReadCache(app, { today: () => '2026-01-01' });
      await expect(
        app.register(async (scope) => {
          scope.get('/x', { config: { cache: { varies } } }, async () => ({ ok: true }));
        }),
      ).rejects.toThrow(/cache/);
      await app.close().catch(() => {});
    }
    expect(() => assertCacheable('GET /x', { varies: ['catalog', 'mallDate'] })).not.toThrow();
  });
});

describe("the public pages' cache (docs/decisions/034)", () => {
  /** What a page shows: its head (title, canonical, structured data) and the screen; not the reads' clock. */
  const shown = (html: string) => ({
    head: /<head>([\s\S]*?)<\/head>/.exec(html)?.[1],
    screen: /<div id="root"[^>]*>([\s\S]*)<\/div><script type="application\/json" id="page-state">/.exec(
      html,
    )?.[1],
  });

  it('gives every page as a fresh render would, to everyone: today, after a change, on the next mall day', async () => {
    const pageRoutes = t.app.routeTable
      .filter(
        (route) =>
          route.method === 'GET' &&
          ['/shops', '/shops/:slug', '/offers', '/floors', '/search'].includes(route.url),
      )
      .map((route) => route.url);
    expect(pageRoutes.sort()).toEqual(['/floors', '/offers', '/search', '/shops', '/shops/:slug']);
    const urls = ['/shops', `/shops/${slug}`, '/offers', '/floors', '/search?q=offer'];
    const compare = async (moment: string) => {
      // An app on the same database and clock whose pages are drawn now: what every page should be.
      const fresh = await buildApp({
        database: t.database,
        timeZone: TEST_TIME_ZONE,
        now: t.now,
        maxEventLoopDelayMs: 0,
      });
      try {
        for (const url of urls)
          for (const person of people) {
            // The first may draw the page; the second is the kept one.
            await t.app.inject({ url, headers: person.headers });
            const kept = await t.app.inject({ url, headers: person.headers });
            const drawn = await fresh.inject({ url });
            expect(kept.statusCode, `${url} ${moment}`).toBe(200);
            expect(shown(kept.body), `${url} as ${person.label} ${moment}`).toEqual(shown(drawn.body));
            expect(shown(kept.body).screen?.length).toBeGreaterThan(1000);
          }
      } finally {
        await fresh.close();
      }
    };
    await compare('today');
    // A change to the directory: the offer that ends today is renamed.
    const renamed = await d.call(d.admin, 'PATCH', `/api/offers/${ids.endingOffer}`, {
      title: 'Last Day Renamed',
    });
    expect(renamed.statusCode).toBe(200);
    await compare('after a change');
    expect((await t.app.inject({ url: '/offers' })).body).toContain('Last Day Renamed');
    t.advanceClock(24 * 60 * 60 * 1000);
    try {
      await compare('the next day');
      // And the page really changed overnight (so the comparison above could have failed).
      expect((await t.app.inject({ url: '/offers' })).body).not.toContain('Last Day Renamed');
    } finally {
      t.advanceClock(-24 * 60 * 60 * 1000);
    }
  });
});

describe('shops open at an instant', () => {
  it("follows a change of the mall's hours at once (the change raises the catalogue version)", async () => {
    const url = `/api/shops?openAt=${openAt(t.now())}&pageSize=100`;
    const names = async () =>
      ((await t.app.inject({ url, headers: d.user.headers })).json().items as { id: string }[]).map(
        (s) => s.id,
      );
    const put = (hours: unknown) => d.call(d.admin, 'PUT', '/api/mall-hours', { hours });
    await put(null);
    expect(await names()).toContain(ids.shops);
    expect(await names()).toContain(ids.shops); // now from the cache
    const closed = emptyWeek();
    expect((await put(closed)).statusCode).toBe(200);
    try {
      expect(await names()).not.toContain(ids.shops);
    } finally {
      await put(null);
    }
    expect(await names()).toContain(ids.shops);
  });
});

describe('GET /api/settings', () => {
  it("tells anyone the mall's time zone and today's mall date, never cached", async () => {
    const before = t.now().getTime();
    const response = await t.app.inject({ url: '/api/settings' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      timeZone: TEST_TIME_ZONE,
      today: mallToday(TEST_TIME_ZONE, t.now()),
      // The server's clock, for the browser's "open now" (docs/decisions/017).
      now: expect.any(String),
      // The zone's offsets around now, for the browser's wall clock without Intl.
      offsets: expect.any(Array),
      // Whether the public directory is on (MALL_PUBLIC_DIRECTORY; the app's pages follow it).
      publicDirectory: true,
    });
    const now = Date.parse(response.json().now);
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(t.now().getTime());
    // They reach from before now to beyond the fortnight a status looks ahead, span after span, and say
    // what Intl says at now.
    const offsets = response.json().offsets as { from: number; to: number; offsetMs: number }[];
    expect(offsets[0]?.from).toBeLessThan(now - 2 * 86_400_000);
    expect(offsets.at(-1)?.to).toBeGreaterThan(now + 20 * 86_400_000);
    for (let i = 1; i < offsets.length; i += 1) expect(offsets[i]?.from).toBe(offsets[i - 1]?.to);
    const spanNow = offsets.find((span) => span.from <= now && now < span.to);
    expect(spanNow?.offsetMs).toBe(zoneOffsets(TEST_TIME_ZONE, now, now + 1000)[0]?.offsetMs);
    t.advanceClock(24 * 60 * 60 * 1000);
    try {
      expect(response.json().today).not.toBe((await t.app.inject({ url: '/api/settings' })).json().today);
    } finally {
      t.advanceClock(-24 * 60 * 60 * 1000);
    }
  });
});
