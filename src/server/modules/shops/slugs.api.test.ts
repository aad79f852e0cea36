// Shops' slugs (docs/decisions/034, migration 0016): the address of a shop's public page, made by the
// database from the name on every create and rename — through the API, an import or plain SQL — unique
// among every shop's live and old slugs, an old one kept as a redirect to its shop. The API answers it
// and never takes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopDetail } from '../../../shared/shop';
import type { ImportRun } from '../../../shared/transfer';
import { type Directory, openDirectory, uniqueName } from '../../test/catalog-fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { importSettled } from '../../test/imports';

let t: TestApp;
let d: Directory;
let categoryId: string;
let floorId: string;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
  categoryId = (await d.category()).id;
  floorId = (await d.floor()).id;
});
afterAll(async () => {
  await t?.close();
});

async function create(name: string): Promise<ShopDetail> {
  const response = await d.call(d.admin, 'POST', '/api/shops', { name, categoryId, floorId });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ShopDetail;
}

async function rename(id: string, name: string): Promise<ShopDetail> {
  const response = await d.call(d.admin, 'PATCH', `/api/shops/${id}`, { name });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ShopDetail;
}

/** The shop's old slugs, as the redirects table has them. */
async function redirectsOf(shopId: string): Promise<string[]> {
  const { rows } = await t.database.pool.query<{ slug: string }>(
    'select slug from shop_slug_redirects where shop_id = $1 order by slug',
    [shopId],
  );
  return rows.map((row) => row.slug);
}

/** Who an old slug sends to: the shop's id, or undefined when it is no redirect. */
async function redirectTarget(slug: string): Promise<string | undefined> {
  const { rows } = await t.database.pool.query<{ shop_id: string }>(
    'select shop_id from shop_slug_redirects where slug = $1',
    [slug],
  );
  return rows[0]?.shop_id;
}

/** A word no other test's names contain, lower-case: each test's slugs are its own. */
const word = () => uniqueName('w').split(' ').slice(1).join('');

describe('a new shop', () => {
  it('gets its name as lower-case words joined by "-", in its detail, the list and every read', async () => {
    const shop = await create('Pixel Point');
    expect(shop.slug).toBe('pixel-point');
    const detail = await d.call(d.user, 'GET', `/api/shops/${shop.id}`);
    expect(detail.json().slug).toBe('pixel-point');
    const list = await d.call(d.user, 'GET', `/api/shops?q=${encodeURIComponent('Pixel Point')}`);
    expect(list.json().items.map((item: ShopDetail) => item.slug)).toEqual(['pixel-point']);
    expect((await d.row('shops', shop.id))?.slug).toBe('pixel-point');
  });

  it('folds accents and drops punctuation and spaces at either end', async () => {
    expect((await create('Café Noir')).slug).toBe('cafe-noir');
    expect((await create('  Crème & Brûlée!! — Ærø  ')).slug).toBe('creme-brulee-aero');
    expect((await create("Zoë's 24/7 Store")).slug).toBe('zoe-s-24-7-store');
  });

  it('is "shop", then "shop-2", for a name with no Latin letters or digits', async () => {
    expect((await create('東京百貨')).slug).toBe('shop');
    expect((await create('Книжный')).slug).toBe('shop-2');
  });

  it('is at most 60 characters, its number included, and never ends with "-"', async () => {
    const long = `${word()} ${'Long Name '.repeat(10)}`.trim();
    const first = await create(long);
    expect(first.slug.length).toBeLessThanOrEqual(60);
    expect(long.toLowerCase().replaceAll(' ', '-').startsWith(first.slug)).toBe(true);
    expect(first.slug).not.toMatch(/-$/);
    const second = await create(long);
    expect(second.slug).toMatch(/-2$/);
    expect(second.slug.length).toBeLessThanOrEqual(60);
    expect(second.slug).not.toMatch(/--/);
    const unbroken = `${word()}${'x'.repeat(80)}`;
    expect((await create(unbroken)).slug).toBe(unbroken.slice(0, 60));
    expect((await create(unbroken)).slug).toBe(`${unbroken.slice(0, 58)}-2`);
  });

  it('takes "-2", "-3"… after a name another shop has', async () => {
    const name = `Twin ${word()}`;
    const base = name.toLowerCase().replace(' ', '-');
    const slugs = [];
    for (let i = 0; i < 3; i += 1) slugs.push((await create(name)).slug);
    expect(slugs).toEqual([base, `${base}-2`, `${base}-3`]);
    // Spelt differently, the same words: the same slug's next number.
    expect((await create(name.toUpperCase())).slug).toBe(`${base}-4`);
  });

  it('is never given by the API: a create or an edit naming it is refused, writing nothing', async () => {
    const name = `Own ${word()}`;
    const before = await d.count('shops');
    const posted = await d.call(d.admin, 'POST', '/api/shops', { name, categoryId, floorId, slug: 'mine' });
    expect(posted.statusCode).toBe(400);
    expect(posted.json().error).toMatchObject({ code: 'VALIDATION', message: 'Unknown field: slug' });
    expect(await d.count('shops')).toBe(before);
    const shop = await create(name);
    const patched = await d.call(d.admin, 'PATCH', `/api/shops/${shop.id}`, { slug: 'mine' });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().error.message).toBe('Unknown field: slug');
    // Nor by SQL: the trigger keeps it while the name stays.
    await t.database.pool.query(`update shops set slug = 'mine' where id = $1`, [shop.id]);
    expect((await d.row('shops', shop.id))?.slug).toBe(shop.slug);
    // An edit that leaves the name keeps the slug and makes no redirect.
    const edited = await d.call(d.admin, 'PATCH', `/api/shops/${shop.id}`, { description: 'New words' });
    expect(edited.json().slug).toBe(shop.slug);
    expect(await redirectsOf(shop.id)).toEqual([]);
  });
});

describe('a rename', () => {
  it('gives the new name’s slug and keeps the old one as a redirect to the shop', async () => {
    const w = word();
    const shop = await create(`Old ${w}`);
    const renamed = await rename(shop.id, `New ${w}`);
    expect(renamed.slug).toBe(`new-${w}`);
    expect(await redirectsOf(shop.id)).toEqual([`old-${w}`]);
    // A rename to a name of the same slug (another spelling) changes nothing.
    expect((await rename(shop.id, `NEW ${w}!`)).slug).toBe(`new-${w}`);
    expect(await redirectsOf(shop.id)).toEqual([`old-${w}`]);
  });

  it('back to the old name: the old slug is live again and no longer a redirect', async () => {
    const w = word();
    const shop = await create(`First ${w}`);
    await rename(shop.id, `Second ${w}`);
    const back = await rename(shop.id, `First ${w}`);
    expect(back.slug).toBe(`first-${w}`);
    expect(await redirectsOf(shop.id)).toEqual([`second-${w}`]);
    expect(await redirectTarget(`first-${w}`)).toBeUndefined();
  });

  it('never gives a shop another shop’s live slug or old slug', async () => {
    const w = word();
    const a = await create(`Gamma ${w}`);
    await rename(a.id, `Delta ${w}`);
    // gamma-… is a's old address, delta-… its live one: neither goes to another shop.
    const b = await create(`Gamma ${w}`);
    expect(b.slug).toBe(`gamma-${w}-2`);
    const c = await create(`Delta ${w}`);
    expect(c.slug).toBe(`delta-${w}-2`);
    const e = await create(`Epsilon ${w}`);
    expect((await rename(e.id, `Gamma ${w}`)).slug).toBe(`gamma-${w}-3`);
    expect(await redirectTarget(`gamma-${w}`)).toBe(a.id);
    expect(await redirectTarget(`epsilon-${w}`)).toBe(e.id);
    // a may take its old address back; b keeps its own.
    expect((await rename(a.id, `Gamma ${w}`)).slug).toBe(`gamma-${w}`);
    expect((await d.row('shops', b.id))?.slug).toBe(`gamma-${w}-2`);
  });

  it('gives way to a slug freed by a deleted shop, and a shop’s redirects go with it', async () => {
    const w = word();
    const shop = await create(`Going ${w}`);
    await rename(shop.id, `Gone ${w}`);
    expect(await redirectsOf(shop.id)).toEqual([`going-${w}`]);
    const removed = await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}`);
    expect(removed.statusCode).toBe(204);
    expect(await redirectsOf(shop.id)).toEqual([]);
    expect((await create(`Going ${w}`)).slug).toBe(`going-${w}`);
    expect((await create(`Gone ${w}`)).slug).toBe(`gone-${w}`);
  });
});

describe('shops made together', () => {
  it('two creates of one name at once both succeed, with different slugs', async () => {
    const name = `Rush ${word()}`;
    const base = name.toLowerCase().replace(' ', '-');
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => d.call(d.admin, 'POST', '/api/shops', { name, categoryId, floorId })),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(201);
    const slugs = responses.map((response) => (response.json() as ShopDetail).slug).sort();
    expect(slugs).toEqual([base, `${base}-2`, `${base}-3`, `${base}-4`]);
  });

  it('a name and a name that is its next slug, at once: both succeed, with different slugs', async () => {
    const w = word();
    const responses = await Promise.all(
      [`Pair ${w}`, `Pair ${w}`, `Pair ${w} 2`].map((name) =>
        d.call(d.admin, 'POST', '/api/shops', { name, categoryId, floorId }),
      ),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(201);
    const slugs = responses.map((response) => (response.json() as ShopDetail).slug);
    expect(new Set(slugs).size).toBe(3);
  });

  it('an import gives each new shop its slug, names it shares with others or one another included', async () => {
    const w = word();
    await create(`Imported ${w}`);
    // Codes make each row a new shop, whatever its name.
    const csv = [
      'code,name,category,floor',
      `A${w},Imported ${w},Imports ${w},Ground ${w}`,
      `B${w},Imported ${w},Imports ${w},Ground ${w}`,
      `C${w},Café ${w},Imports ${w},Ground ${w}`,
    ].join('\n');
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/imports?kind=shops&fileName=shops.csv',
      headers: { ...d.admin.headers, 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(202);
    const id = (uploaded.json() as ImportRun).id;
    await settled(id);
    const confirmed = await d.call(d.admin, 'POST', `/api/imports/${id}/confirm`, { validOnly: false });
    expect(confirmed.statusCode, confirmed.body).toBe(202);
    expect((await settled(id)).status).toBe('done');
    const { rows } = await t.database.pool.query<{ slug: string }>(
      'select slug from shops where name in ($1, $2) order by slug',
      [`Imported ${w}`, `Café ${w}`],
    );
    expect(rows.map((row) => row.slug)).toEqual([
      `cafe-${w}`,
      `imported-${w}`,
      `imported-${w}-2`,
      `imported-${w}-3`,
    ]);
  });

  it('many shops in one statement of one transaction (a large import), names repeated: each its own slug', async () => {
    const w = word();
    const client = await t.database.pool.connect();
    try {
      await client.query('begin');
      await client.query(
        `insert into shops (name, category_id, floor_id)
         select 'Bulk ${w} ' || (g % 4500), $1, $2 from generate_series(1, 9000) g`,
        [categoryId, floorId],
      );
      await client.query('commit');
    } finally {
      client.release();
    }
    const { rows } = await t.database.pool.query<{ n: number; slugs: number }>(
      `select count(*)::int as n, count(distinct slug)::int as slugs from shops where name like $1`,
      [`Bulk ${w} %`],
    );
    expect(rows[0]).toEqual({ n: 9000, slugs: 9000 });
  });
});

const settled = (id: string) => importSettled(t.app, d.admin, id);
