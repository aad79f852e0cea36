// /robots.txt and the sitemap on a real database (issue 33): robots with the directory on and off, every
// shop listed once by its slug with its last change from the audit log (a pending offer is no change),
// pictures, well-formed and escaped XML, the index beyond 50,000 URLs, and nothing private in any of it.
// The writes go through the whole app (so they are audited as in production); the plugin runs on an app
// of its own over the same database, the directory on or off, as app.ts will register it.
import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImageKey } from '../../shared/images';
import type { UndeclaredStatus } from '../errors';
import {
  childText,
  elementsNamed,
  parseXml,
  textOf,
  type XmlElement,
} from '../modules/public-site/well-formed-xml';
import { type Directory, openDirectory, uniqueName } from '../test/catalog-fixtures';
import { createTestApp, type SignedIn, type TestApp } from '../test/harness';
import { multipart, testJpeg } from '../test/images';
import { errorAnswersPlugin } from './error-answers';
import { sitemapRobotsPlugin } from './sitemap-robots';

const undeclared: string[] = [];

/** The plugin on an app of its own over the test's database, with the error handler and the answer check. */
async function sitemapApp(
  t: TestApp,
  options: { publicDirectory: boolean; trustProxy?: boolean },
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, trustProxy: options.trustProxy ?? false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorAnswersPlugin, {
    onUndeclaredStatus: ({ method, route, status }: UndeclaredStatus) =>
      undeclared.push(`${method} ${route} answered ${status}, which its schema.response does not declare`),
  });
  await app.register(sitemapRobotsPlugin, { db: t.database.db, publicDirectory: options.publicDirectory });
  await app.ready();
  return app;
}

const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

function xmlOf(response: LightMyRequestResponse): XmlElement {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
  return parseXml(response.body);
}

/** url → lastmod of every url in a urlset. */
function lastmods(root: XmlElement): Map<string, string | undefined> {
  return new Map(
    elementsNamed(root, 'url').map((url) => [childText(url, 'loc') ?? '', childText(url, 'lastmod')]),
  );
}

const upload = (
  t: TestApp,
  as: SignedIn,
  url: string,
  body: { payload: Buffer; headers: Record<string, string> },
) => t.app.inject({ method: 'PUT', url, payload: body.payload, headers: { ...body.headers, ...as.headers } });

let t: TestApp;
let d: Directory;
let on: FastifyInstance;
let off: FastifyInstance;
let proxied: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
  on = await sitemapApp(t, { publicDirectory: true });
  off = await sitemapApp(t, { publicDirectory: false });
  proxied = await sitemapApp(t, { publicDirectory: true, trustProxy: true });
});
afterAll(async () => {
  await Promise.all([on?.close(), off?.close(), proxied?.close()]);
  await t?.close();
  expect(undeclared).toEqual([]);
});

/** A shop inserted as a loader would (no audit entry), created a day ago; `created` as the sitemap writes it. */
async function oldShop(name: string): Promise<{ id: string; slug: string; created: string }> {
  const category = await d.category();
  const floor = await d.floor();
  const { rows } = await t.database.pool.query<{ id: string; slug: string; created: string }>(
    `insert into shops (name, category_id, floor_id, created_at)
     values ($1, $2, $3, now() - interval '1 day')
     returning id, slug, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created`,
    [name, category.id, floor.id],
  );
  const shop = rows[0];
  if (!shop) throw new Error('no shop inserted');
  return shop;
}

describe('robots.txt', () => {
  it('directory on: the public pages allowed, the API (but its images) and the signed-in areas not, the sitemap named', async () => {
    const response = await get(on, '/robots.txt', { host: 'mall.test:8080' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe(
      [
        'User-agent: *',
        'Allow: /',
        'Allow: /api/images/',
        'Disallow: /api/',
        'Disallow: /admin',
        'Disallow: /manage',
        'Disallow: /user',
        'Disallow: /account',
        'Disallow: /login',
        'Disallow: /register',
        'Disallow: /unauthorized',
        '',
        'Sitemap: http://mall.test:8080/sitemap.xml',
        '',
      ].join('\n'),
    );
  });

  it('directory off: everything disallowed, no sitemap named', async () => {
    const response = await get(off, '/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('User-agent: *\nDisallow: /\n');
  });

  it('behind a trusted proxy the forwarded protocol and host make the base; otherwise they are not believed', async () => {
    const forwarded = {
      host: 'internal:3000',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'mall.example.com',
    };
    expect((await get(proxied, '/robots.txt', forwarded)).body).toContain(
      'Sitemap: https://mall.example.com/sitemap.xml\n',
    );
    expect((await get(on, '/robots.txt', forwarded)).body).toContain(
      'Sitemap: http://internal:3000/sitemap.xml\n',
    );
  });
});

describe('the sitemap, directory off', () => {
  it('every sitemap address is a 404 with the error body', async () => {
    for (const url of ['/sitemap.xml', '/sitemap-1.xml']) {
      const response = await get(off, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such sitemap' } });
    }
  });
});

describe('the sitemap, directory on', () => {
  it('lists the fixed pages and every shop once, by its slug, as a well-formed urlset', async () => {
    const shops = await Promise.all([
      d.shop(),
      d.shop(),
      d.shop({ name: `Tom & Jerry's <"Toys"> ${uniqueName('')}` }),
    ]);
    const root = xmlOf(await get(on, '/sitemap.xml', { host: 'mall.test' }));
    expect(root.name).toBe('urlset');
    const locs = elementsNamed(root, 'loc').map(textOf);
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs.slice(0, 5)).toEqual([
      'http://mall.test/',
      'http://mall.test/shops',
      'http://mall.test/offers',
      'http://mall.test/floors',
      'http://mall.test/events',
    ]);
    const { rows } = await t.database.pool.query<{ slug: string }>('select slug from shops order by slug');
    expect(locs.slice(5)).toEqual(rows.map(({ slug }) => `http://mall.test/shops/${slug}`));
    const tom = await t.database.pool.query<{ slug: string }>('select slug from shops where id = $1', [
      shops[2]?.id,
    ]);
    expect(tom.rows[0]?.slug).toMatch(/^tom-jerry-s-toys-/);
    for (const shop of shops) expect(locs.filter((loc) => loc.endsWith(`/${shop.id}`))).toEqual([]);
  });

  it("a shop's lastmod: its creation while nothing is audited, then its latest audited change", async () => {
    const shop = await oldShop(uniqueName('Old shop'));
    const url = `http://mall.test/shops/${shop.slug}`;
    const before = lastmods(xmlOf(await get(on, '/sitemap.xml', { host: 'mall.test' }))).get(url);
    expect(before).toBe(shop.created);
    const patched = await d.call(d.admin, 'PATCH', `/api/shops/${shop.id}`, {
      description: 'Now with a description',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = lastmods(xmlOf(await get(on, '/sitemap.xml', { host: 'mall.test' }))).get(url);
    const { rows } = await t.database.pool.query<{ at: string }>(
      `select to_char(max(at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at from audit_log where shop_id = $1`,
      [shop.id],
    );
    expect(after).toBe(rows[0]?.at);
    expect(after && before && after > before).toBe(true);
    // The fixed pages: the mall's latest public change.
    const fixed = lastmods(xmlOf(await get(on, '/sitemap.xml', { host: 'mall.test' })));
    expect(fixed.get('http://mall.test/')).toBe(after);
    expect(fixed.get('http://mall.test/shops')).toBe(after);
  });

  it("a manager and their offer waiting for approval change no public page's date; the approval does", async () => {
    const shop = await oldShop(uniqueName('Managed shop'));
    const url = `http://mall.test/shops/${shop.slug}`;
    const dated = async () => lastmods(xmlOf(await get(on, '/sitemap.xml', { host: 'mall.test' })));
    const mallBefore = (await dated()).get('http://mall.test/');
    const manager = await d.manager(shop.id);
    const title = uniqueName('Secret pending offer');
    const proposed = await d.call(manager, 'POST', '/api/offers', {
      title,
      discount: 20,
      startDate: d.today(),
      endDate: d.day(10),
      shopId: shop.id,
    });
    expect(proposed.statusCode, proposed.body).toBe(201);
    expect(proposed.json().approved).toBe(false);
    const pending = await dated();
    expect(pending.get(url)).toBe(shop.created);
    expect(pending.get('http://mall.test/')).toBe(mallBefore);
    // Nothing of it in the sitemap, nor of the manager.
    const body = (await get(on, '/sitemap.xml', { host: 'mall.test' })).body;
    expect(body).not.toContain(title);
    expect(body).not.toContain(manager.user.email);

    const approved = await d.call(d.admin, 'POST', `/api/offer-reviews/${proposed.json().id}/approve`, {
      version: proposed.json().review.version,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await dated()).get(url)).not.toBe(shop.created);
  });

  it("image entries: a shop's logo and cover, the mall's logo on the home page, the floor plans on /floors", async () => {
    const floor = await d.floor();
    const shop = await d.shop({ floorId: floor.id });
    const logo = (await upload(t, d.admin, `/api/shops/${shop.id}/logo`, multipart(await testJpeg()))).json()
      .image;
    const cover = (
      await upload(t, d.admin, `/api/shops/${shop.id}/cover`, multipart(await testJpeg()))
    ).json().image;
    const plan = (
      await upload(t, d.admin, `/api/floors/${floor.id}/plan`, multipart(await testJpeg()))
    ).json().image;
    // The mall's logo: an image the mall already stores (the profile's own upload is another module's).
    const mallLogo = plan;
    await t.database.pool.query('update mall_profile set logo_image = $1', [mallLogo]);
    for (const key of [logo, cover, plan]) expect(parseImageKey(key), String(key)).not.toBeNull();
    const { rows } = await t.database.pool.query<{ slug: string }>('select slug from shops where id = $1', [
      shop.id,
    ]);
    const root = xmlOf(await get(on, '/sitemap.xml', { host: 'mall.test' }));
    const imagesOf = (loc: string) => {
      const url = elementsNamed(root, 'url').find((item) => childText(item, 'loc') === loc);
      return url ? elementsNamed(url, 'image:loc').map(textOf) : null;
    };
    const image = (key: string) => `http://mall.test/api/images/${key}/1200.webp`;
    expect(imagesOf(`http://mall.test/shops/${rows[0]?.slug}`)).toEqual([image(logo), image(cover)]);
    expect(imagesOf('http://mall.test/')).toEqual([image(mallLogo)]);
    expect(imagesOf('http://mall.test/floors')).toContain(image(plan));
    expect(imagesOf('http://mall.test/shops')).toEqual([]);
    // An image the sitemap names is served.
    const served = await t.app.inject({ method: 'GET', url: `/api/images/${logo}/1200.webp` });
    expect(served.statusCode).toBe(200);
  });

  it("the profile's public URL is the base whatever the Host; XML special characters in it are escaped", async () => {
    await t.database.pool.query(`update mall_profile set public_url = $1`, [
      "https://mall.example.com/o'neil&co",
    ]);
    try {
      const response = await get(on, '/sitemap.xml', { host: 'elsewhere.test' });
      const root = xmlOf(response);
      expect(response.body).toContain('<loc>https://mall.example.com/o&apos;neil&amp;co/</loc>');
      expect(elementsNamed(root, 'loc').map(textOf)[0]).toBe("https://mall.example.com/o'neil&co/");
      expect(
        elementsNamed(root, 'loc').every((loc) =>
          textOf(loc).startsWith("https://mall.example.com/o'neil&co/"),
        ),
      ).toBe(true);
      expect((await get(on, '/robots.txt', { host: 'elsewhere.test' })).body).toContain(
        "Sitemap: https://mall.example.com/o'neil&co/sitemap.xml\n",
      );
    } finally {
      await t.database.pool.query(`update mall_profile set public_url = ''`);
    }
  });

  it('answers 304 to its ETag, gzip to a client that takes it, and HEAD', async () => {
    const first = await get(on, '/sitemap.xml', { host: 'mall.test' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await get(on, '/sitemap.xml', { host: 'mall.test', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const zipped = await on.inject({
      method: 'GET',
      url: '/sitemap.xml',
      headers: { host: 'mall.test', 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(first.body);
    const refused = await get(on, '/sitemap.xml', { host: 'mall.test', 'accept-encoding': 'gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const head = await on.inject({ method: 'HEAD', url: '/sitemap.xml', headers: { host: 'mall.test' } });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    // Another host is another base: not the first one's bytes.
    const other = await get(on, '/sitemap.xml', { host: 'other.test' });
    expect(other.body).toContain('<loc>http://other.test/</loc>');
    expect(other.headers.etag).not.toBe(etag);
  });

  it('a new shop shows at once (the cache follows the catalogue version)', async () => {
    await get(on, '/sitemap.xml', { host: 'mall.test' });
    const shop = await d.shop();
    const { rows } = await t.database.pool.query<{ slug: string }>('select slug from shops where id = $1', [
      shop.id,
    ]);
    expect((await get(on, '/sitemap.xml', { host: 'mall.test' })).body).toContain(
      `<loc>http://mall.test/shops/${rows[0]?.slug}</loc>`,
    );
  });

  it('while everything fits in /sitemap.xml there is no /sitemap-<n>.xml; bad spellings are 404s', async () => {
    for (const url of [
      '/sitemap-1.xml',
      '/sitemap-0.xml',
      '/sitemap-01.xml',
      '/sitemap-x.xml',
      '/sitemap-.xml',
      '/sitemap-1.5.xml',
      '/sitemap--1.xml',
    ]) {
      const response = await get(on, url, { host: 'mall.test' });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    }
  });

  it('a Host that makes no URL (and no public URL set): 400', async () => {
    const response = await get(on, '/sitemap.xml', { host: 'a@b' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('BAD_HOST');
  });

  it('nothing private: no account emails, no pending offers, no signed-in or API addresses', async () => {
    const shop = await d.shop();
    const manager = await d.manager(shop.id);
    const title = uniqueName('Pending for approval');
    const proposed = await d.call(manager, 'POST', '/api/offers', {
      title,
      discount: 5,
      startDate: d.today(),
      endDate: d.day(3),
      shopId: shop.id,
    });
    expect(proposed.statusCode).toBe(201);
    // Events (issue 35): an approved one is listed by its page; a manager's, waiting, is not.
    const eventBody = (title: string) => ({
      title,
      shopId: shop.id,
      placeKind: 'mall',
      allDay: true,
      startDate: d.day(1),
      endDate: d.day(1),
    });
    const listedEvent = await d.call(d.admin, 'POST', '/api/events', eventBody(uniqueName('Listed event')));
    const pendingEvent = await d.call(manager, 'POST', '/api/events', eventBody(uniqueName('Pending event')));
    expect([listedEvent.statusCode, pendingEvent.statusCode]).toEqual([201, 201]);
    const sitemap = (await get(on, '/sitemap.xml', { host: 'mall.test' })).body;
    expect(sitemap).toContain(`<loc>http://mall.test/events/${listedEvent.json().id}</loc>`);
    const bodies = [sitemap, (await get(on, '/robots.txt', { host: 'mall.test' })).body];
    for (const body of bodies) {
      for (const secret of [
        manager.user.email,
        d.admin.user.email,
        d.user.user.email,
        title,
        proposed.json().id,
        pendingEvent.json().id,
      ])
        expect(body).not.toContain(secret);
      expect(body).not.toMatch(/@example\.com/);
    }
    const locs = [...sitemap.matchAll(/<(?:image:)?loc>([^<]*)<\/(?:image:)?loc>/g)].map(
      (match) => match[1] ?? '',
    );
    for (const loc of locs) {
      const path = new URL(loc).pathname;
      expect(path, loc).toMatch(
        /^\/(?:shops|offers|floors|events)?(?:\/[a-z0-9-]+)?$|^\/api\/images\/[A-Za-z0-9_-]+-\d+x\d+\/1200\.webp$/,
      );
    }
  });
});

describe('more than 50,000 URLs', () => {
  let big: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    big = await createTestApp();
    app = await sitemapApp(big, { publicDirectory: true });
    const { pool } = big.database;
    const { rows } = await pool.query<{ category: string; floor: string }>(
      `with c as (insert into categories (name) values ('Bulk category') returning id),
            f as (insert into floors (name, level) values ('Bulk floor', 1) returning id)
       select c.id as category, f.id as floor from c, f`,
    );
    const ids = rows[0];
    if (!ids) throw new Error('no category');
    // 50,010 shops in one statement; their slugs from the trigger ("bulk-shop-00001"…).
    await pool.query(
      `insert into shops (name, category_id, floor_id)
       select 'Bulk shop ' || lpad(g::text, 5, '0'), $1, $2 from generate_series(1, 50010) g`,
      [ids.category, ids.floor],
    );
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await big?.close();
  });

  it('/sitemap.xml is an index of two files; together they list every URL once; a third file is a 404', async () => {
    const index = xmlOf(await get(app, '/sitemap.xml', { host: 'mall.test' }));
    expect(index.name).toBe('sitemapindex');
    const files = elementsNamed(index, 'sitemap').map((sitemap) => childText(sitemap, 'loc'));
    expect(files).toEqual(['http://mall.test/sitemap-1.xml', 'http://mall.test/sitemap-2.xml']);
    for (const sitemap of elementsNamed(index, 'sitemap'))
      expect(childText(sitemap, 'lastmod')).toMatch(/Z$/);

    const first = xmlOf(await get(app, '/sitemap-1.xml', { host: 'mall.test' }));
    const second = xmlOf(await get(app, '/sitemap-2.xml', { host: 'mall.test' }));
    const firstLocs = elementsNamed(first, 'loc').map(textOf);
    const secondLocs = elementsNamed(second, 'loc').map(textOf);
    expect(firstLocs.length).toBe(50_000);
    expect(secondLocs.length).toBe(50_010 + 5 - 50_000);
    const all = [...firstLocs, ...secondLocs];
    expect(new Set(all).size).toBe(all.length);
    expect(all.slice(0, 6)).toEqual([
      'http://mall.test/',
      'http://mall.test/shops',
      'http://mall.test/offers',
      'http://mall.test/floors',
      'http://mall.test/events',
      'http://mall.test/shops/bulk-shop-00001',
    ]);
    expect(all.at(-1)).toBe('http://mall.test/shops/bulk-shop-50010');

    expect((await get(app, '/sitemap-3.xml', { host: 'mall.test' })).statusCode).toBe(404);
    expect((await get(app, '/sitemap-02.xml', { host: 'mall.test' })).statusCode).toBe(404);
  }, 120_000);
});
