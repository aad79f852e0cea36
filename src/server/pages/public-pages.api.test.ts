// The public directory's pages (issue 33, docs/decisions/034) through the whole app: each page is the page
// itself in its first response (title, description, canonical URL, the shop's name, hours and offers, its
// structured data), a shop's old addresses move to its slug for good, an unknown shop is a 404 page, a
// page is cached by what it depends on (the catalogue version, the mall's date, its Open-now statuses) and
// by nothing else (not a tracking parameter, not who asks, not the Host header), the pages are rate-limited
// but the renderer's own reads are not, MALL_PUBLIC_DIRECTORY=off turns it all off, and no query string, nor
// many requests at once, makes a page fail.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { everyDay } from '../../shared/hours';
import type { Offer } from '../../shared/offer';
import type { Place } from '../../shared/place';
import type { Product } from '../../shared/product';
import type { ShopDetail } from '../../shared/shop';
import { DEFAULT_MAX_EVENT_LOOP_DELAY_MS } from '../env';
import { type Directory, openDirectory, uniqueName } from '../test/catalog-fixtures';
import { createTestApp, TEST_TIME_ZONE, type TestApp } from '../test/harness';

const MALL = 'Super Mall';
/** The origin app.inject's requests come from (Host: localhost:80), when the profile names no public URL. */
const BASE = 'http://localhost:80';
const HOUR = 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------------
// Reading a page

interface Page {
  response: LightMyRequestResponse;
  html: string;
  title: string | undefined;
  description: string | undefined;
  canonical: string | undefined;
  robots: string | undefined;
  /** Every <script type="application/ld+json">, parsed. */
  jsonLd: Record<string, unknown>[];
  /** What is inside #root (the rendered screen), as text: tags out, entities read. */
  text: string;
  /** The reads the page was drawn from (#page-state), parsed. */
  state: { queries: { queryKey: unknown[]; state: { data?: unknown } }[] } | undefined;
}

const entitiesRead = (text: string) =>
  text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;|&#34;/g, '"')
    .replace(/&lt;|&#60;/g, '<')
    .replace(/&gt;|&#62;/g, '>')
    .replace(/&amp;|&#38;/g, '&');

function readPage(response: LightMyRequestResponse): Page {
  const html = response.body;
  const first = (pattern: RegExp) => {
    const match = pattern.exec(html)?.[1];
    return match === undefined ? undefined : entitiesRead(match);
  };
  const root =
    /<div id="root" data-prerendered="[^"]*">([\s\S]*)<\/div><script type="application\/json" id="page-state">/.exec(
      html,
    )?.[1];
  const state = /<script type="application\/json" id="page-state">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return {
    response,
    html,
    title: first(/<title>([^<]*)<\/title>/),
    description: first(/<meta name="description" content="([^"]*)" \/>/),
    canonical: first(/<link rel="canonical" href="([^"]*)" \/>/),
    robots: first(/<meta name="robots" content="([^"]*)" \/>/),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (match) => JSON.parse(match[1] ?? 'null') as Record<string, unknown>,
    ),
    text: entitiesRead((root ?? '').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' '),
    state: state === undefined ? undefined : JSON.parse(state),
  };
}

/** GET `url` as a visitor (no cookie), with these headers. */
const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

/** A page that must be there: 200, HTML, cacheable by ETag, drawn on the server. */
async function page(app: FastifyInstance, url: string, headers: Record<string, string> = {}): Promise<Page> {
  const response = await get(app, url, headers);
  expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['cache-control']).toBe('public, no-cache');
  expect(response.headers.etag).toMatch(/^"[\w-]{22}"$/);
  const read = readPage(response);
  expect(read.html, url).toContain('<div id="root" data-prerendered="page">');
  expect(read.state?.queries.length, `${url}: the reads it was drawn from`).toBeGreaterThan(0);
  return read;
}

/** The renderer's own reads (in-process, marked by its header) while `run` runs: a render makes some. */
async function renderReads<T>(
  app: FastifyInstance,
  run: () => Promise<T>,
): Promise<{ result: T; reads: string[] }> {
  const inject = vi.spyOn(app, 'inject');
  try {
    const result = await run();
    const reads = (inject.mock.calls as unknown as [{ url?: string; headers?: Record<string, string> }][])
      .map(([options]) => options)
      .filter((options) => options.headers?.['x-mall-render'] !== undefined)
      .map((options) => String(options.url));
    return { result, reads };
  } finally {
    inject.mockRestore();
  }
}

/** The instant today (mall date) at `hour`:00 in the mall's time zone (Asia/Kolkata, UTC+05:30 all year). */
function mallTimeToday(hour: number): number {
  expect(TEST_TIME_ZONE).toBe('Asia/Kolkata');
  const offset = 5.5 * HOUR;
  const local = Date.now() + offset;
  return local - (local % (24 * HOUR)) + hour * HOUR - offset;
}

// ---------------------------------------------------------------------------------------------------
// The mall the pages show

let t: TestApp;
let d: Directory;
let category: Place;
let floor: Place;
/** Open every day 09:15–21:45, in an ElectronicsStore category, with a running offer and a product. */
let shop: ShopDetail;
let offer: Offer;
let product: Product;
const word = uniqueName('Zircon').split(' ').join('');

beforeAll(async () => {
  t = await createTestApp();
  // The app's clock at noon in the mall (the database's is its own): every status below is far from
  // its next change, and moving the clock to the evening closes the shop.
  t.advanceClock(mallTimeToday(12) - t.now().getTime());
  d = await openDirectory(t);
  category = (
    await d.call(d.admin, 'POST', '/api/categories', {
      name: uniqueName('Gadgets'),
      schemaType: 'ElectronicsStore',
    })
  ).json();
  floor = await d.floor();
  shop = await d.shop({
    name: uniqueName('Pixel Point'),
    description: `Phones, cables and ${word} repairs.`,
    contact: '+91 80 1234 5678',
    hours: everyDay('09:15', '21:45'),
    categoryId: category.id,
    floorId: floor.id,
  });
  offer = await d.offer({
    shopId: shop.id,
    title: uniqueName('Monsoon Sale'),
    description: 'On every cable',
  });
  product = await d.product({ shopId: shop.id, name: `${word} Charger`, price: 42.5 });
});
afterAll(async () => {
  await t?.close();
});

describe('each public page', () => {
  it("/shops/{slug}: the shop's name, description, hours with their status, contact, offers and products, as its category's store type in the mall", async () => {
    const p = await page(t.app, `/shops/${shop.slug}`);
    expect(p.title).toBe(`${shop.name} · ${MALL}`);
    expect(p.description).toBe(shop.description);
    expect(p.canonical).toBe(`${BASE}/shops/${shop.slug}`);
    expect(p.html).toContain(`<meta property="og:url" content="${BASE}/shops/${shop.slug}" />`);
    expect(p.html).toContain(`<meta property="og:title" content="${shop.name} · ${MALL}" />`);
    expect(p.robots).toBeUndefined();
    // The first response's HTML has it all (JavaScript off, a link preview, a search engine).
    expect(p.html).toMatch(new RegExp(`<h1[^>]*>${shop.name}</h1>`));
    for (const shown of [
      shop.description,
      category.name,
      floor.name,
      'Mon–Sun 09:15–21:45',
      'Open now',
      '+91 80 1234 5678',
      'Current Offers',
      offer.title,
      product.name,
      '₹42.50',
    ])
      expect(p.text, shown).toContain(shown);
    expect(p.html).toContain('href="tel:+918012345678"');

    expect(p.jsonLd).toHaveLength(1);
    const graph = p.jsonLd[0]?.['@graph'] as Record<string, unknown>[];
    expect(p.jsonLd[0]?.['@context']).toBe('https://schema.org');
    const [store, ...products] = graph;
    expect(store).toMatchObject({
      '@type': 'ElectronicsStore',
      '@id': `${BASE}/shops/${shop.slug}#store`,
      name: shop.name,
      url: `${BASE}/shops/${shop.slug}`,
      description: shop.description,
      telephone: '+91 80 1234 5678',
      containedInPlace: { '@id': `${BASE}/#mall` },
      openingHoursSpecification: [
        expect.objectContaining({ '@type': 'OpeningHoursSpecification', opens: '09:15', closes: '21:45' }),
      ],
      makesOffer: [
        expect.objectContaining({
          '@type': 'Offer',
          name: offer.title,
          validFrom: `${offer.startDate}T00:00:00+05:30`,
          validThrough: `${offer.endDate}T23:59:59+05:30`,
        }),
      ],
    });
    expect(products).toEqual([
      expect.objectContaining({
        '@type': 'Product',
        name: product.name,
        offers: expect.objectContaining({ '@type': 'Offer', price: '42.50', priceCurrency: 'INR' }),
      }),
    ]);
  });

  it('/shops: the directory, the mall as a ShoppingCenter containing its shops', async () => {
    const p = await page(t.app, '/shops');
    expect(p.title).toBe(`Shops · ${MALL}`);
    expect(p.description).toContain(`Every shop at ${MALL}`);
    expect(p.canonical).toBe(`${BASE}/shops`);
    expect(p.text).toContain(shop.name);
    // The filters are a GET form and links that work without JavaScript.
    expect(p.html).toMatch(/<form[^>]*action="\/shops"/);
    expect(p.html).toContain(`href="/shops/${shop.slug}"`);
    expect(p.jsonLd).toHaveLength(1);
    expect(p.jsonLd[0]).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'ShoppingCenter',
      '@id': `${BASE}/#mall`,
      name: MALL,
      url: `${BASE}/`,
    });
    expect(p.jsonLd[0]?.containsPlace).toContainEqual({
      '@type': 'ElectronicsStore',
      '@id': `${BASE}/shops/${shop.slug}#store`,
      name: shop.name,
      url: `${BASE}/shops/${shop.slug}`,
    });
  });

  it('/offers: the running offers, an ItemList of Offers each offered by its shop', async () => {
    const p = await page(t.app, '/offers');
    expect(p.title).toBe(`Current Offers · ${MALL}`);
    expect(p.description).toContain(`The offers running at ${MALL} today`);
    expect(p.canonical).toBe(`${BASE}/offers`);
    expect(p.text).toContain(offer.title);
    expect(p.text).toContain(shop.name);
    expect(p.jsonLd).toHaveLength(1);
    const list = p.jsonLd[0] as { '@type': string; itemListElement: { item: Record<string, unknown> }[] };
    expect(list['@type']).toBe('ItemList');
    expect(list.itemListElement.length).toBeGreaterThan(0);
    for (const element of list.itemListElement) expect(element.item['@type']).toBe('Offer');
    expect(list.itemListElement.map((element) => element.item)).toContainEqual(
      expect.objectContaining({
        name: offer.title,
        offeredBy: expect.objectContaining({ '@type': 'ElectronicsStore', name: shop.name }),
      }),
    );
  });

  it('/floors: every floor with its shops, and the mall', async () => {
    const p = await page(t.app, '/floors');
    expect(p.title).toBe(`Floors · ${MALL}`);
    expect(p.canonical).toBe(`${BASE}/floors`);
    expect(p.text).toContain(floor.name);
    expect(p.text).toContain(shop.name);
    expect(p.jsonLd.map((data) => data['@type'])).toEqual(['ShoppingCenter']);
  });

  it('/search?q=: the results in the first response, not for search engines to index', async () => {
    const p = await page(t.app, `/search?q=${word.toLowerCase()}`);
    expect(p.title).toBe(`Search: ${word.toLowerCase()} · ${MALL}`);
    expect(p.robots).toBe('noindex, follow');
    expect(p.canonical).toBe(`${BASE}/search?q=${word.toLowerCase()}`);
    expect(p.text).toContain(product.name);
    expect(p.text).toContain(shop.name);
    expect(p.jsonLd).toEqual([]);
  });
});

describe("a shop's addresses", () => {
  it('moves /shops/{id} and an old slug after a rename to the slug for good, with the page’s own query', async () => {
    const moving = await d.shop({ name: uniqueName('Old Name') });
    const byId = await get(t.app, `/shops/${moving.id}?page=2`);
    expect(byId.statusCode).toBe(301);
    expect(byId.headers.location).toBe(`/shops/${moving.slug}?page=2`);

    const renamed = (
      await d.call(d.admin, 'PATCH', `/api/shops/${moving.id}`, { name: uniqueName('New Name') })
    ).json() as ShopDetail;
    expect(renamed.slug).not.toBe(moving.slug);
    const old = await get(t.app, `/shops/${moving.slug}?page=2&utm_source=newsletter`);
    expect(old.statusCode).toBe(301);
    // Tracking parameters are not the page's: its address is the canonical one.
    expect(old.headers.location).toBe(`/shops/${renamed.slug}?page=2`);
    expect((await get(t.app, `/shops/${moving.id}`)).headers.location).toBe(`/shops/${renamed.slug}`);
    expect((await page(t.app, `/shops/${renamed.slug}`)).title).toBe(`${renamed.name} · ${MALL}`);

    // The API answers every address with the shop, naming its slug (the page moves to it).
    for (const address of [moving.slug, moving.id, renamed.slug]) {
      const answer = await get(t.app, `/api/shops/by-slug/${address}`);
      expect(answer.statusCode, address).toBe(200);
      expect(answer.json()).toMatchObject({ id: moving.id, slug: renamed.slug, name: renamed.name });
    }
  });

  it("answers other spellings of a public page's path with its one address", async () => {
    for (const [asked, location] of [
      ['/Shops', '/shops'],
      ['/shops/', '/shops'],
      ['/OFFERS/?page=2', '/offers?page=2'],
      [`/Shops/${shop.slug}/`, `/shops/${shop.slug}`],
      ['/events/', '/events'],
      ['/Events/?tag=kids', '/events?tag=kids'],
      ['/events/?tag=kids', '/events?tag=kids'],
      ['/Privacy/', '/privacy'],
    ] as const) {
      const response = await get(t.app, asked);
      expect(response.statusCode, asked).toBe(301);
      expect(response.headers.location, asked).toBe(location);
    }
  });

  it('answers an unknown or deleted shop with 404 and the page saying so', async () => {
    const gone = await d.shop();
    expect((await d.call(d.admin, 'DELETE', `/api/shops/${gone.id}`)).statusCode).toBe(204);
    for (const address of ['no-such-shop', gone.slug, gone.id, 'x'.repeat(100)]) {
      const response = await get(t.app, `/shops/${address}`);
      expect(response.statusCode, address).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      const p = readPage(response);
      expect(p.title).toBe(`Shop not found · ${MALL}`);
      expect(p.robots).toBe('noindex, follow');
      expect(p.canonical).toBeUndefined();
      // What a visitor without JavaScript reads: the app's own "Shop not found", not a loading state.
      expect(p.html).toMatch(/<h1[^>]*>Shop not found<\/h1>/);
      expect(p.text).not.toContain('Loading');
      const api = await get(t.app, `/api/shops/by-slug/${address}`);
      expect(api.statusCode, address).toBe(404);
      expect(api.json().error.code).toBe('NOT_FOUND');
    }
    // Longer than the router takes a parameter: its 414, as for any route.
    const long = await get(t.app, `/shops/${'x'.repeat(101)}`);
    expect(long.statusCode).toBe(414);
    expect(long.json().error.code).toEqual(expect.any(String));
  });
});

describe("a page's cache", () => {
  it('sends a page twice as one: the same ETag, 304 on If-None-Match, the same bytes compressed', async () => {
    for (const url of ['/shops', `/shops/${shop.slug}`, '/offers', '/floors', `/search?q=${word}`]) {
      const first = await get(t.app, url);
      const { result: second, reads } = await renderReads(t.app, () => get(t.app, url));
      expect(reads, `${url} drawn again`).toEqual([]);
      expect(second.statusCode).toBe(200);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(second.body).toBe(first.body);
      const etag = String(first.headers.etag);
      const notModified = await get(t.app, url, { 'if-none-match': etag });
      expect(notModified.statusCode, url).toBe(304);
      expect(notModified.body).toBe('');
      expect(notModified.headers.etag).toBe(etag);
      expect((await get(t.app, url, { 'if-none-match': '"something-else"' })).statusCode).toBe(200);
      const br = await get(t.app, url, { 'accept-encoding': 'gzip, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('accept-encoding');
      expect(br.headers.etag).toBe(etag);
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(first.body);
      const gzip = await get(t.app, url, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(first.body);
    }
  });

  it('sends a page asked for again at brotli’s best: smaller, the same page once undone', async () => {
    // A page no earlier test asked for (pages are kept per origin): the shop page those tests asked for
    // may already have been made again at quality 11 before this test's first request.
    const url = `/shops/${shop.slug}`;
    const origin = { host: `brotli-${Date.now()}.example` };
    const plain = (await get(t.app, url, origin)).body;
    const first = (await get(t.app, url, { ...origin, 'accept-encoding': 'br' })).rawPayload;
    let best = first;
    for (const deadline = Date.now() + 30_000; best.length >= first.length && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      best = (await get(t.app, url, { ...origin, 'accept-encoding': 'br' })).rawPayload;
    }
    expect(best.length).toBeLessThan(first.length);
    expect(zlib.brotliDecompressSync(best).toString()).toBe(plain);
    expect(zlib.brotliDecompressSync(first).toString()).toBe(plain);
  });

  it('is the same page for everyone: drawn as a visitor, whoever asks', async () => {
    const url = `/shops/${shop.slug}`;
    const visitor = await get(t.app, url);
    const { result: asAdmin, reads } = await renderReads(t.app, () => get(t.app, url, d.admin.headers));
    expect(reads).toEqual([]);
    expect(asAdmin.headers.etag).toBe(visitor.headers.etag);
    expect(asAdmin.body).toBe(visitor.body);
    expect(asAdmin.body).not.toContain(d.admin.user.email);
  });

  it("shows an admin's change on the next request (the catalogue version keys the page)", async () => {
    const url = `/shops/${shop.slug}`;
    const before = await page(t.app, url);
    const description = `Now with ${uniqueName('laptops')}.`;
    expect((await d.call(d.admin, 'PATCH', `/api/shops/${shop.id}`, { description })).statusCode).toBe(200);
    const after = await page(t.app, url);
    expect(after.response.headers.etag).not.toBe(before.response.headers.etag);
    expect(after.description).toBe(description);
    expect(after.text).toContain(description);
    expect(
      (await get(t.app, url, { 'if-none-match': String(before.response.headers.etag) })).statusCode,
    ).toBe(200);
    // A new offer is on /offers at once too.
    const added = await d.offer({ shopId: shop.id, title: uniqueName('Flash Sale') });
    expect((await page(t.app, '/offers')).text).toContain(added.title);
    shop = { ...shop, description };
  });

  it("follows the mall's date: an offer that ends today is gone tomorrow, the directory unchanged", async () => {
    const ending = await d.offer({ shopId: shop.id, title: uniqueName('Last Day'), endDate: d.today() });
    expect((await page(t.app, '/offers')).text).toContain(ending.title);
    t.advanceClock(24 * HOUR);
    try {
      expect((await page(t.app, '/offers')).text).not.toContain(ending.title);
      expect((await page(t.app, `/shops/${shop.slug}`)).text).not.toContain(ending.title);
    } finally {
      t.advanceClock(-24 * HOUR);
    }
  });

  it('keeps "Open now" right on a kept page: the shop closes at 21:45 and the page says so', async () => {
    const url = `/shops/${shop.slug}`;
    const noon = await page(t.app, url);
    expect(noon.text).toContain('Open now');
    // Still noon a minute later: the same page from the cache.
    t.advanceClock(60_000);
    expect((await get(t.app, url)).headers.etag).toBe(noon.response.headers.etag);
    const evening = mallTimeToday(22) - t.now().getTime();
    t.advanceClock(evening);
    try {
      const closed = await page(t.app, url);
      expect(closed.text).not.toContain('Open now');
      expect(closed.text).toContain('Closed');
      expect((await page(t.app, '/shops')).text).toContain('Closed');
    } finally {
      t.advanceClock(-evening - 60_000);
    }
  });

  it("keeps no request's Host in another visitor's page", async () => {
    const url = '/floors?from=poster';
    const poisoned = await get(t.app, url, { host: 'attacker.example' });
    expect(poisoned.statusCode).toBe(200);
    const p = await page(t.app, url);
    expect(p.canonical).toBe(`${BASE}/floors`);
    expect(p.html).not.toContain('attacker.example');
  });
});

describe('junk in the query string', () => {
  const JUNK = [
    'utm_source=newsletter&utm_medium=email&utm_campaign=monsoon',
    'fbclid=abc123&gclid=xyz',
    'page=2&page=3',
    'q=a&q=b&q=c',
    `q=${'x'.repeat(10 * 1024)}`,
    `utm_content=${'y'.repeat(10 * 1024)}`,
    'q=%E0%A4%A',
    'q=%',
    'page=%zz',
    '%%%=1',
    'page=-1',
    'page=1e9',
    'page=0',
    'page=999999',
    'page=1.5',
    'page=',
    'category=&floor=&open=',
    'open=now&open=later',
    'category=%00&floor=%EF%BF%BF',
    'q=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
    'kind=nonsense&q=shop',
    '__proto__[x]=1&constructor[prototype][y]=2',
    'a'.repeat(2000),
  ];

  it('never fails a page (no 5xx) and never puts raw junk in it', async () => {
    const paths = ['/shops', `/shops/${shop.slug}`, '/offers', '/floors', '/search'];
    for (const pathname of paths)
      for (const junk of JUNK) {
        const url = `${pathname}?${junk}`;
        const response = await get(t.app, url);
        expect(response.statusCode, url).toBeLessThan(500);
        expect([200, 400, 404], url).toContain(response.statusCode);
        expect(response.body).not.toContain('<script>alert(1)</script>');
        expect(({} as Record<string, unknown>).x).toBeUndefined();
      }
  });

  it('never splits the cache: a tracking parameter, a repeated one or another order is the same page', async () => {
    const plain = await page(
      t.app,
      `/shops?category=${encodeURIComponent(category.name)}&floor=${encodeURIComponent(floor.name)}`,
    );
    expect(plain.text).toContain(shop.name);
    for (const variant of [
      `/shops?floor=${encodeURIComponent(floor.name)}&category=${encodeURIComponent(category.name)}`,
      `/shops?category=${encodeURIComponent(category.name)}&floor=${encodeURIComponent(floor.name)}&utm_source=x`,
      `/shops?utm_source=${'z'.repeat(5000)}&category=${encodeURIComponent(category.name)}&floor=${encodeURIComponent(floor.name)}&page=1`,
      `/shops?category=${encodeURIComponent(category.name)}&category=Other&floor=${encodeURIComponent(floor.name)}`,
    ]) {
      const { result, reads } = await renderReads(t.app, () => get(t.app, variant));
      expect(reads, variant).toEqual([]);
      expect(result.headers.etag, variant).toBe(plain.response.headers.etag);
      expect(readPage(result).canonical).toBe(plain.canonical);
    }
    for (const pathname of [`/shops/${shop.slug}`, '/offers', '/floors', `/search?q=${word}`]) {
      const first = await get(t.app, pathname);
      const joiner = pathname.includes('?') ? '&' : '?';
      const { result, reads } = await renderReads(t.app, () =>
        get(t.app, `${pathname}${joiner}utm_source=newsletter&utm_medium=email`),
      );
      expect(reads, pathname).toEqual([]);
      expect(result.headers.etag, pathname).toBe(first.headers.etag);
    }
    // The renderer's reads are what the spy counts: a page not kept yet is drawn from them.
    const { reads } = await renderReads(t.app, () => get(t.app, `/search?q=${uniqueName('fresh')}`));
    expect(reads.length).toBeGreaterThan(0);
  });
});

describe('MALL_PUBLIC_DIRECTORY=off', () => {
  let off: TestApp;
  let clientDir: string;
  const INDEX_HTML =
    '<!doctype html><html><head><title>Super Mall</title></head><body><div id="root"></div></body></html>';
  beforeAll(async () => {
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mall-client-'));
    fs.writeFileSync(path.join(clientDir, 'index.html'), INDEX_HTML);
    off = await createTestApp({ publicDirectory: false, clientDir });
    const admin = await openDirectory(off);
    await admin.shop({ name: uniqueName('Hidden') });
  });
  afterAll(async () => {
    await off?.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  it("answers the public pages 404 (the app's 404 page), a visitor's reads 401, robots disallows all, no sitemap", async () => {
    const slug = (await off.database.pool.query<{ slug: string }>('select slug from shops limit 1')).rows[0]
      ?.slug;
    for (const url of [
      '/shops',
      `/shops/${slug}`,
      '/offers',
      '/floors',
      '/search?q=a',
      '/Shops/',
      '/shops/',
    ]) {
      const response = await get(off.app, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).toBe(INDEX_HTML);
      expect(response.headers['x-robots-tag'], url).toBe('noindex');
    }
    for (const url of [
      '/api/shops',
      `/api/shops/by-slug/${slug}`,
      '/api/offers',
      '/api/floor-guide',
      '/api/search?q=a',
    ]) {
      const response = await get(off.app, url);
      expect(response.statusCode, url).toBe(401);
      expect(response.json().error.code).toBe('UNAUTHENTICATED');
    }
    const robots = await get(off.app, '/robots.txt');
    expect(robots.statusCode).toBe(200);
    expect(robots.body).toBe('User-agent: *\nDisallow: /\n');
    expect((await get(off.app, '/sitemap.xml')).statusCode).toBe(404);
    // The landing page is not indexed either: nothing of the mall is public.
    expect((await get(off.app, '/')).headers['x-robots-tag']).toBe('noindex');
  });

  it('answers the public pages with the JSON 404 when there is no client (API tests, the Vite dev server)', async () => {
    const bare = await createTestApp({ publicDirectory: false });
    try {
      const response = await get(bare.app, '/shops');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No route for GET /shops' } });
      const pages = (app: FastifyInstance) =>
        app.routeTable.filter((route) => !route.url.startsWith('/api/')).map((route) => route.url);
      expect(pages(t.app)).toEqual(
        expect.arrayContaining(['/shops', '/shops/:slug', '/offers', '/floors', '/search']),
      );
      expect(pages(bare.app)).not.toContain('/shops');
      expect(pages(bare.app)).not.toContain('/shops/:slug');
    } finally {
      await bare.close();
    }
  });
});

describe('rate limits', () => {
  const LIMITS = { apiPerMinute: 5, signInPerMinute: 3, registerPerHour: 2 };
  let limited: TestApp;
  let slug: string;
  let name: string;
  beforeAll(async () => {
    limited = await createTestApp({ rateLimits: LIMITS, trustProxy: '127.0.0.1' });
    const admin = await openDirectory(limited);
    const limitedShop = await admin.shop({ name: uniqueName('Counted'), hours: everyDay('00:00', '24:00') });
    await admin.offer({ shopId: limitedShop.id, title: uniqueName('Counted Offer') });
    await admin.product({ shopId: limitedShop.id });
    slug = limitedShop.slug;
    name = limitedShop.name;
  });
  afterAll(async () => {
    await limited?.close();
  });
  const from = (address: string) => ({ 'x-forwarded-for': address });

  it("counts a page per address, not the renderer's own reads (a shop page makes more than the limit)", async () => {
    const { result, reads } = await renderReads(limited.app, () =>
      get(limited.app, `/shops/${slug}`, from('198.51.100.1')),
    );
    expect(result.statusCode).toBe(200);
    // Drawn from every read it needs, none refused: the shop, its offers, its products, the clock…
    expect(reads.length).toBeGreaterThan(LIMITS.apiPerMinute);
    const p = readPage(result);
    expect(p.title).toBe(`${name} · ${MALL}`);
    expect(p.html).toMatch(new RegExp(`<h1[^>]*>${name}</h1>`));
    expect(p.text).not.toContain('Try again');
    // Pages and API reads of one address share its bucket: 4 more requests, then 429.
    for (const url of ['/shops?q=a', '/offers', '/api/shops', '/floors'])
      expect((await get(limited.app, url, from('198.51.100.1'))).statusCode, url).toBe(200);
    for (const url of ['/shops', `/shops/${slug}`, '/search?q=b', '/api/categories']) {
      const refused = await get(limited.app, url, from('198.51.100.1'));
      expect(refused.statusCode, url).toBe(429);
      expect(refused.json().error.code).toBe('RATE_LIMITED');
      expect(refused.headers['retry-after']).toBeDefined();
    }
    // Another address is not limited by it; robots and the sitemap are not counted.
    expect((await get(limited.app, '/shops', from('198.51.100.2'))).statusCode).toBe(200);
    for (let i = 0; i < LIMITS.apiPerMinute + 2; i++) {
      expect((await get(limited.app, '/robots.txt', from('198.51.100.3'))).statusCode).toBe(200);
      expect((await get(limited.app, '/sitemap.xml', from('198.51.100.3'))).statusCode).toBe(200);
    }
  });

  it('limits a flood of uncached pages from one address after the limit: the rest cost no render', async () => {
    const address = from('198.51.100.9');
    const statuses: number[] = [];
    const { reads } = await renderReads(limited.app, async () => {
      for (let i = 0; i < LIMITS.apiPerMinute * 3; i++)
        statuses.push((await get(limited.app, `/search?q=flood${i}`, address)).statusCode);
    });
    expect(statuses.slice(0, LIMITS.apiPerMinute)).toEqual(Array(LIMITS.apiPerMinute).fill(200));
    expect(statuses.slice(LIMITS.apiPerMinute)).toEqual(Array(LIMITS.apiPerMinute * 2).fill(429));
    // Only the pages let through were drawn (each reads the search for its own words).
    expect(reads.some((url) => url.includes('flood0'))).toBe(true);
    expect(reads.filter((url) => /flood([5-9]|1\d)(\D|$)/.test(url))).toEqual([]);
  });
});

describe('many at once', () => {
  let busy: TestApp;
  let slug: string;
  beforeAll(async () => {
    // As a server runs: the event-loop check on (the harness leaves it off), its 503 the one failure allowed.
    busy = await createTestApp({ maxEventLoopDelayMs: DEFAULT_MAX_EVENT_LOOP_DELAY_MS });
    const admin = await openDirectory(busy);
    const busyShop = await admin.shop({ name: uniqueName('Busy'), hours: everyDay('00:00', '24:00') });
    await admin.offer({ shopId: busyShop.id });
    await admin.product({ shopId: busyShop.id });
    slug = busyShop.slug;
  });
  afterAll(async () => {
    await busy?.close();
  });

  /** Every answer a 200, or the overload guard's 503 with Retry-After: never another 5xx. */
  function expectServedOrShed(responses: LightMyRequestResponse[]): LightMyRequestResponse[] {
    const failures = responses.filter((response) => response.statusCode !== 200);
    for (const failure of failures) {
      expect(failure.statusCode, failure.body.slice(0, 200)).toBe(503);
      expect(failure.headers['retry-after']).toBe('5');
      expect(failure.json().error.code).toBe('OVERLOADED');
    }
    return responses.filter((response) => response.statusCode === 200);
  }

  it('200 requests for 200 pages not drawn yet: each served whole or shed with 503', async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => get(busy.app, `/shops?q=${i % 2 ? 'busy' : 'nothing'}${i}`)),
    );
    const served = expectServedOrShed(responses);
    expect(served.length).toBeGreaterThan(0);
    for (const response of served) {
      const p = readPage(response);
      expect(p.title).toBe(`Shops · ${MALL}`);
      expect(p.html).toContain('data-prerendered="page"');
    }
  }, 120_000);

  it('200 requests for one kept page: the same bytes to all', async () => {
    const url = `/shops/${slug}`;
    const kept = await page(busy.app, url);
    const responses = await Promise.all(Array.from({ length: 200 }, () => get(busy.app, url)));
    const served = expectServedOrShed(responses);
    expect(served.length).toBeGreaterThan(0);
    for (const response of served) {
      expect(response.headers.etag).toBe(kept.response.headers.etag);
      expect(response.body).toBe(kept.html);
    }
  }, 120_000);

  it('200 requests for one page not drawn yet: all the same page', async () => {
    const url = `/shops?q=${uniqueName('stampede')}`;
    const responses = await Promise.all(Array.from({ length: 200 }, () => get(busy.app, url)));
    const served = expectServedOrShed(responses);
    expect(served.length).toBeGreaterThan(0);
    const canonical = new Set(served.map((response) => readPage(response).canonical));
    expect(canonical.size).toBe(1);
    // Whichever render a request got, the next one is answered from the cache with one of them. It too
    // may be shed while the stampede's lag is still measured (a CI run beside the browser tests): asked
    // again until served.
    let after = await get(busy.app, url);
    for (let tries = 0; after.statusCode === 503 && tries < 40; tries++) {
      expectServedOrShed([after]);
      await sleep(250);
      after = await get(busy.app, url);
    }
    expect(after.statusCode).toBe(200);
    expect(served.map((response) => response.headers.etag)).toContain(after.headers.etag);
  }, 120_000);
});
