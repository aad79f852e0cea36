// The mall-wide search (/api/search) on the demo mall: typos, ranking, accents and case, "Did you mean",
// paging per group, running offers only, bad input, and a session-wide threshold that must not matter.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_KEY_PATTERN } from '../../../shared/images';
import type { ReviewedOffer } from '../../../shared/offer';
import type { SearchResults } from '../../../shared/search';
import { loadDemoData } from '../../db/demo-data';
import { type Directory, expectError, openDirectory } from '../../test/catalog-fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { searchRepository } from './repository';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
  // with its pictures: the answer carries logos and photos (issue 16)
  await loadDemoData(t.database.db, d.today(), { images: t.app.imageStore });
});
afterAll(async () => {
  await t?.close();
});

async function search(query: string): Promise<SearchResults> {
  const response = await d.call(d.user, 'GET', `/api/search?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as SearchResults;
}
const q = (text: string) => search(`q=${encodeURIComponent(text)}`);
const shopNames = (r: SearchResults) => r.shops?.items.map((shop) => shop.name) ?? [];
const productNames = (r: SearchResults) => r.products?.items.map((product) => product.name) ?? [];

describe('typos', () => {
  it('finds Samsung, coffee, headphones and Pixel Point misspelt', async () => {
    expect(productNames(await q('samsng'))[0]).toBe('Samsung Galaxy A55');
    expect(productNames(await q('cofee'))).toEqual(expect.arrayContaining(['Filter Coffee']));
    expect(productNames(await q('hedphones'))[0]).toBe('Over-Ear Headphones');
    expect(shopNames(await q('pixl point'))[0]).toBe('Pixel Point');
  });

  it('finds a shop by its category and its description', async () => {
    expect(shopNames(await q('electronics'))).toEqual(
      expect.arrayContaining(['Voltbay', 'Circuit House', 'Pixel Point']),
    );
    expect(shopNames(await q('chikmagalur'))).toEqual(['Bean There Café']);
  });
});

describe('ranking', () => {
  it('puts an exact name first, then names that start with the search, then fuzzy matches', async () => {
    const shop = await d.shop({ name: 'Lumen' });
    const result = await search('q=lumen&kind=shops');
    // "Lumen" exactly, then "Lumen & Clay" (prefix); a fuzzy "Lumen"-alike would come after.
    expect(shopNames(result).slice(0, 2)).toEqual(['Lumen', 'Lumen & Clay']);
    // Products in the category "Coffee" (exact) and named "… Coffee …" before anything spelt differently.
    const coffee = (await search('q=coffee&kind=products')).products?.items ?? [];
    const spelt = coffee.map((p) => `${p.name} ${p.category}`.toLowerCase().includes('coffee'));
    expect(spelt.indexOf(false) === -1 || spelt.slice(spelt.indexOf(false)).every((s) => !s)).toBe(true);
    expect(coffee[0]?.category).toBe('Coffee');
    await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}`);
  });

  it('ranks exact, then the whole starting with it, then a word starting with it, then containing it', async () => {
    const names = ['Minquokka', 'Baby Quokka', 'Quokka Plush', 'Quokka'];
    const made = [];
    for (const name of names) made.push(await d.product({ name, category: 'Toys' }));
    expect(productNames(await search('q=quokka&kind=products'))).toEqual([...names].reverse());
    for (const product of made) await d.call(d.admin, 'DELETE', `/api/products/${product.id}`);
  });

  it('searches a word the mall has as typed, and corrects only a word it does not have', async () => {
    const kettlebell = await d.product({ name: 'Kettlebell Set', category: 'Fitness' });
    expect(productNames(await search('q=kettle&kind=products'))).toEqual(['Kettlebell Set']);
    const corrected = await search('q=ketlebell&kind=products');
    expect(corrected.searched).toBe('kettlebell');
    expect(productNames(corrected)).toEqual(['Kettlebell Set']);
    await d.call(d.admin, 'DELETE', `/api/products/${kettlebell.id}`);
  });

  it('finds every word, in any order and in any column it is in', async () => {
    expect(productNames(await q('headphones over-ear'))).toEqual(['Over-Ear Headphones']);
    expect(productNames(await q('galaxy samsng'))).toEqual(['Samsung Galaxy A55']);
  });

  it('finds a part inside a word of a product or offer added a moment ago (the mall’s words move on with it)', async () => {
    // Asked before they exist, the words are in no name: both groups are empty.
    expect((await q('xotr')).products?.total).toBe(0);
    expect((await q('rtexa')).offers?.total).toBe(0);
    const shop = await d.shop();
    await d.product({ shopId: shop.id, name: 'Quixotry Lamp' });
    await d.offer({ shopId: shop.id, title: 'Vortexa Week' });
    expect(productNames(await q('xotr'))).toEqual(['Quixotry Lamp']);
    expect((await q('rtexa')).offers?.items.map((offer) => offer.title)).toEqual(['Vortexa Week']);
    expect(productNames(await q('xotr lamp'))).toEqual(['Quixotry Lamp']);
  });
});

describe('accents and case', () => {
  it('ignores both, either way round', async () => {
    expect(shopNames(await q('bean there cafe'))[0]).toBe('Bean There Café');
    expect(shopNames(await q('BEAN THERE CAFÉ'))[0]).toBe('Bean There Café');
    const crepe = await d.product({ name: 'Crepe Pan', category: 'Cookware' });
    expect(productNames(await q('crêpe'))).toContain('Crepe Pan');
    await d.call(d.admin, 'DELETE', `/api/products/${crepe.id}`);
  });
});

describe('did you mean', () => {
  it('offers the mall’s own word when nothing matches, and nothing when something does', async () => {
    const none = await q('kofee');
    expect(none.shops?.total).toBe(0);
    expect(none.products?.total).toBe(0);
    expect(none.offers?.total).toBe(0);
    expect(none.didYouMean).toBe('coffee');
    expect((await q('coffee')).didYouMean).toBeNull();
    expect((await q('zzqxj')).didYouMean).toBeNull();
  });
});

describe('groups and pages', () => {
  it('answers every group with its count, and one group page by page', async () => {
    const all = await q('e');
    for (const group of [all.shops, all.products, all.offers]) {
      expect(group?.pageSize).toBe(5);
      expect(group?.items.length).toBeLessThanOrEqual(5);
    }
    const total = all.products?.total ?? 0;
    expect(total).toBeGreaterThan(20);
    const first = await search('q=e&kind=products&pageSize=10');
    const second = await search('q=e&kind=products&pageSize=10&page=2');
    expect(first.shops).toBeUndefined();
    expect(first.products?.total).toBe(total);
    expect(first.products?.items).toHaveLength(10);
    const ids = new Set(
      [...(first.products?.items ?? []), ...(second.products?.items ?? [])].map((p) => p.id),
    );
    expect(ids.size).toBe(20);
  });

  it('shows shoppers running offers only, with the shop they belong to', async () => {
    const shop = await d.shop();
    await d.offer({ shopId: shop.id, title: 'Zanzibar Running Deal' });
    await d.offer({
      shopId: shop.id,
      title: 'Zanzibar Ended Deal',
      startDate: d.day(-10),
      endDate: d.day(-1),
    });
    await d.offer({ shopId: shop.id, title: 'Zanzibar Future Deal', startDate: d.day(1), endDate: d.day(5) });
    const result = await search('q=zanzibar&kind=offers');
    expect(result.offers?.items.map((offer) => offer.title)).toEqual(['Zanzibar Running Deal']);
    expect(result.offers?.items[0]?.shopName).toBe(shop.name);
  });

  it("neither finds nor suggests a shop manager's offer that waits for an admin", async () => {
    const shop = await d.shop();
    const manager = await d.manager(shop.id);
    const submitted = await d.call(manager, 'POST', '/api/offers', {
      title: 'Quetzalcoatl Preview Deal',
      discount: 15,
      startDate: d.today(),
      endDate: d.day(3),
      shopId: shop.id,
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const pending = await q('quetzalcoatl');
    expect(pending.offers?.total).toBe(0);
    // nor is its word the mall's: a typo of it is neither corrected to it nor offered as "Did you mean"
    const typo = await q('quetzalcoatel');
    expect(typo.searched).not.toBe('quetzalcoatl');
    expect(typo.didYouMean).not.toBe('quetzalcoatl');
    const offer = submitted.json() as ReviewedOffer;
    const approved = await d.call(d.admin, 'POST', `/api/offer-reviews/${offer.id}/approve`, {
      version: offer.review?.version,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await q('quetzalcoatel')).offers?.items.map((o) => o.title)).toEqual([
      'Quetzalcoatl Preview Deal',
    ]);
  });
});

describe('the session’s settings', () => {
  it('do not change results: pg_trgm thresholds set on a pooled connection', async () => {
    // A pooled connection keeps what someone SET on it: the search must not depend on it.
    await t.database.pool.query('set pg_trgm.word_similarity_threshold = 0.99');
    await t.database.pool.query('set pg_trgm.similarity_threshold = 0.99');
    try {
      expect(productNames(await q('samsng'))[0]).toBe('Samsung Galaxy A55');
    } finally {
      await t.database.pool.query('reset pg_trgm.word_similarity_threshold');
      await t.database.pool.query('reset pg_trgm.similarity_threshold');
    }
  });
});

describe('bad input', () => {
  it('refuses an empty, blank, too long or malformed search with a clear message', async () => {
    for (const query of ['', 'q=', 'q=%20%20']) {
      expectError(
        await d.call(d.user, 'GET', `/api/search?${query}`),
        400,
        'VALIDATION',
        'Type something to search for',
      );
    }
    expectError(
      await d.call(d.user, 'GET', `/api/search?q=${'a'.repeat(101)}`),
      400,
      'VALIDATION',
      'Search text must be at most 100 characters',
    );
    expectError(
      await d.call(d.user, 'GET', '/api/search?q=tea&kind=people'),
      400,
      'VALIDATION',
      'Kind must be shops, products or offers',
    );
    expect((await d.call(d.user, 'GET', '/api/search?q=tea&page=0')).statusCode).toBe(400);
    expect((await d.call(d.user, 'GET', '/api/search?q=tea&sort=name')).statusCode).toBe(400);
  });

  it('treats LIKE wildcards and quotes as text', async () => {
    for (const text of ['%', '_', "'; drop table shops; --", '\\']) {
      const result = await q(text);
      expect(result.shops?.total).toBe(0);
    }
  });

  it("is a visitor's too while the public directory is on, with the same answer (docs/decisions/034)", async () => {
    const visitor = await d.call(null, 'GET', '/api/search?q=coffe');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual(await q('coffe'));
    expect(shopNames(visitor.json())).toContain('Bean There Café');
  });
});

describe('pictures', () => {
  it("carries each shop's logo, each product's photo and each offer's shop logo, and they are served", async () => {
    const found = await q('coffee');
    const shop = found.shops?.items.find((item) => item.name === 'Bean There Café');
    expect(shop?.logo).toMatch(IMAGE_KEY_PATTERN);
    const product = found.products?.items.find((item) => item.name === 'Filter Coffee');
    expect(product?.image).toMatch(IMAGE_KEY_PATTERN);
    const offers = (await q('brew')).offers?.items ?? [];
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) expect(offer.shopLogo).toMatch(IMAGE_KEY_PATTERN);
    const logo = await t.app.inject({ url: `/api/images/${shop?.logo}/160.webp` });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/webp');
  });

  it('gives null, not a key, where a shop has no logo (the screens draw its monogram)', async () => {
    const shop = await d.shop();
    const found = await search(`q=${encodeURIComponent(shop.name)}&kind=shops`);
    const item = found.shops?.items.find((row) => row.id === shop.id);
    expect(item).toBeDefined();
    expect(item?.logo).toBeNull();
  });
});

describe('a new version of the directory', () => {
  it('finds a product added a moment ago', async () => {
    const version = async () => {
      const { rows } = await t.database.db.execute<{ v: string }>(
        sql`select version::text as v from catalog_version where id = 1`,
      );
      return rows[0]?.v ?? 'none';
    };
    const search = searchRepository(t.database.db);
    const names = async () =>
      (
        (
          await search.search('zephyrin', {
            page: 1,
            pageSize: 5,
            today: d.today(),
            version: await version(),
          })
        ).products?.items ?? []
      ).map((p) => p.name);
    expect(await names()).toEqual([]);
    const shop = await d.shop();
    await d.product({ shopId: shop.id, name: 'Zephyrine Kettle' });
    expect(await names()).toEqual(['Zephyrine Kettle']);
  });
});

describe('a burst of searches (issue 31)', () => {
  it('runs a few at once and refuses the rest with 503 and Retry-After, never queueing without bound', async () => {
    // 60 different misspelt searches at once, none answered by the read cache
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        d.call(d.user, 'GET', `/api/search?q=${encodeURIComponent(`samsng hedphones ${i}x`)}`),
      ),
    );
    const refused = answers.filter((answer) => answer.statusCode === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.headers['retry-after']).toBeDefined();
      expect(answer.json().error.code).toBe('OVERLOADED');
    }
    // every other one answered in full; afterwards the search is there again
    expect(answers.filter((answer) => answer.statusCode !== 503).every((a) => a.statusCode === 200)).toBe(
      true,
    );
    expect(productNames(await q('samsng'))[0]).toBe('Samsung Galaxy A55');
  });
});
