import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsightsReport, ShopInsights, Synonym } from '../../../shared/insights';
import { type Directory, openDirectory, uniqueName } from '../../test/catalog-fixtures';
import { createTestApp, type SignedIn, type TestApp } from '../../test/harness';

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

/** Hits reported as a browser (or as `agent`) from `address`, signed in as `as` or not. */
function report(
  hits: unknown[],
  { as, agent = BROWSER, address = '198.51.100.7' }: { as?: SignedIn; agent?: string; address?: string } = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api/insights/hits',
    payload: { hits },
    remoteAddress: address,
    headers: { ...(as?.headers ?? {}), 'user-agent': agent },
  });
}

async function mallReport(as: SignedIn = d.admin): Promise<InsightsReport> {
  await t.app.insights?.flush();
  const response = await d.call(as, 'GET', '/api/insights');
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as InsightsReport;
}

describe('counting', () => {
  it("counts a shop's views from visitors and shoppers, per item, and leaves bots out", async () => {
    const shop = await d.shop();
    expect((await report([{ kind: 'shop_view', id: shop.id }])).statusCode).toBe(204);
    expect((await report([{ kind: 'shop_view', id: shop.id }], { as: d.user })).statusCode).toBe(204);
    expect((await report([{ kind: 'shop_view', id: shop.id }], { agent: GOOGLEBOT })).statusCode).toBe(204);
    // No user agent at all: not a browser either.
    const bare = await t.app.inject({
      method: 'POST',
      url: '/api/insights/hits',
      payload: { hits: [{ kind: 'shop_view', id: shop.id }] },
    });
    expect(bare.statusCode).toBe(204);
    const found = (await mallReport()).topShops.find((row) => row.id === shop.id);
    expect(found).toEqual({ id: shop.id, name: shop.name, n: 2 });
  });

  it("keeps a search's text only once enough different sessions typed it, and counts every search", async () => {
    const text = `zzqx ${uniqueName('nothing')
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, '')}`;
    const search = { kind: 'search', q: text, shops: 0, products: 0, offers: 0, didYouMean: false };
    const before = await mallReport();
    // One session twice, another once: two sessions, not enough (3).
    await report([search]);
    await report([search]);
    await report([search], { address: '198.51.100.8' });
    let now = await mallReport();
    expect(now.topSearches.find((row) => row.text === text)).toBeUndefined();
    expect(now.otherSearches - before.otherSearches).toBe(3);
    // A third session: the text is kept, with every search typed so far.
    await report([search], { agent: `${BROWSER} Edg/130.0` });
    now = await mallReport();
    expect(now.topSearches.find((row) => row.text === text)).toMatchObject({ searches: 4, empty: 4 });
    expect(now.otherSearches).toBe(before.otherSearches);
    expect(now.emptySearches.find((row) => row.text === text)).toMatchObject({ searches: 4, findsNow: 0 });
    expect((now.totals.search ?? 0) - (before.totals.search ?? 0)).toBe(4);
  });

  it('refuses a hit of an unknown kind or with an id that is not one, naming nothing stored', async () => {
    expect((await report([{ kind: 'visit', id: 'x' }])).statusCode).toBe(400);
    expect((await report([{ kind: 'shop_view', id: 'not-a-uuid' }])).statusCode).toBe(400);
    expect((await report([])).statusCode).toBe(400);
  });

  it('with counting off (MALL_INSIGHTS=off) a hit is still answered 204, and nothing is counted', async () => {
    const off = await createTestApp({ insights: false });
    try {
      expect(off.app.insights).toBeNull();
      const response = await off.app.inject({
        method: 'POST',
        url: '/api/insights/hits',
        payload: { hits: [{ kind: 'open_now' }] },
        headers: { 'user-agent': BROWSER },
      });
      expect(response.statusCode, response.body).toBe(204);
      const { rows } = await off.database.pool.query('select count(*)::int as n from insight_counts');
      expect(rows[0].n).toBe(0);
    } finally {
      await off.close();
    }
  });
});

describe('synonyms', () => {
  it('a search that found nothing finds the shop once an admin adds the synonym, on the next search', async () => {
    const shop = await d.shop({ name: uniqueName('Sneaker Palace') });
    const q = 'trainers';
    const before = await d.call(d.user, 'GET', `/api/search?q=${q}`);
    expect(before.json().shops.items.map((s: { id: string }) => s.id)).not.toContain(shop.id);

    const added = await d.call(d.admin, 'POST', '/api/synonyms', {
      term: ' Trainers ',
      replacement: 'Sneaker',
    });
    expect(added.statusCode, added.body).toBe(201);
    const synonym = added.json() as Synonym;
    expect(synonym).toMatchObject({ term: 'trainers', replacement: 'sneaker' });

    const after = await d.call(d.user, 'GET', `/api/search?q=${q}`);
    expect(after.json().searched).toBe('sneaker');
    expect(after.json().shops.items.map((s: { id: string }) => s.id)).toContain(shop.id);

    // Listed, and the same term twice is refused.
    const list = await d.call(d.admin, 'GET', '/api/synonyms');
    expect(list.json().items.map((s: Synonym) => s.term)).toContain('trainers');
    const twice = await d.call(d.admin, 'POST', '/api/synonyms', { term: 'TRAINERS', replacement: 'shoes' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.fields).toEqual({ term: 'This term has a synonym already' });

    // Audited.
    const log = await d.call(d.admin, 'GET', `/api/audit?entityType=synonym&entityId=${synonym.id}`);
    expect(log.json().items[0]).toMatchObject({ action: 'create', entityName: 'trainers' });

    // Deleted: the search finds nothing again.
    expect((await d.call(d.admin, 'DELETE', `/api/synonyms/${synonym.id}`)).statusCode).toBe(204);
    const gone = await d.call(d.user, 'GET', `/api/search?q=${q}`);
    expect(gone.json().shops.items.map((s: { id: string }) => s.id)).not.toContain(shop.id);
  });

  it("the day's report shows a search that found nothing finds something once a synonym is added", async () => {
    // A word the mall has only in this shop's name, and a term that finds nothing (no typo of any word).
    const word = `kiteflyer${randomBytes(3).toString('hex').replace(/\d/g, 'k')}`;
    const shop = await d.shop({ name: `${word} ${uniqueName('Kites')}` });
    const term = `zqxj${randomBytes(4).toString('hex')}`;
    const search = { kind: 'search', q: term, shops: 0, products: 0, offers: 0, didYouMean: false };
    // Three sessions (SEARCH_MIN_SESSIONS), many searches each: the text is kept and ranks high among
    // the empty ones (the report lists the first EMPTY_ROWS).
    const many = Array.from({ length: 20 }, () => search);
    await report(many);
    await report(many, { address: '198.51.100.21' });
    await report(many, { address: '198.51.100.22' });
    const day = `/api/insights?from=${d.today()}&to=${d.today()}`;
    const emptyRow = async () => {
      await t.app.insights?.flush();
      const response = await d.call(d.admin, 'GET', day);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as InsightsReport).emptySearches.find((row) => row.text === term);
    };
    expect(await emptyRow()).toMatchObject({ searches: 60, findsNow: 0 });

    const added = await d.call(d.admin, 'POST', '/api/synonyms', { term, replacement: word });
    expect(added.statusCode, added.body).toBe(201);

    // The same day's report, read again: the counts are the day's (still found nothing then), what the
    // text finds is now's — the shop, and no "closest word" any more (it finds something).
    const now = await emptyRow();
    expect(now).toMatchObject({ searches: 60, closest: null });
    expect(now?.findsNow).toBeGreaterThan(0);
    const found = await d.call(d.user, 'GET', `/api/search?q=${term}`);
    expect(found.json().shops.items.map((s: { id: string }) => s.id)).toContain(shop.id);
  });

  it('refuses a term with no letter, and a term that is its own replacement', async () => {
    const blank = await d.call(d.admin, 'POST', '/api/synonyms', { term: '!!!', replacement: 'toilets' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.fields).toEqual({ term: 'Use at least one letter or digit' });
    const same = await d.call(d.admin, 'POST', '/api/synonyms', { term: 'Loo', replacement: 'loo' });
    expect(same.statusCode).toBe(400);
  });

  // A file of synonyms goes through the shared import as its `synonyms` kind, export → import included:
  // modules/transfer/import-kinds.api.test.ts (docs/decisions/038).

  it('only the mall office changes synonyms', async () => {
    expect(
      (await d.call(d.user, 'POST', '/api/synonyms', { term: 'atm', replacement: 'cash' })).statusCode,
    ).toBe(403);
    expect((await d.call(d.user, 'GET', '/api/synonyms')).statusCode).toBe(403);
  });
});

describe("a shop's numbers", () => {
  it('its managers see them, a manager of another shop is refused, a shopper too', async () => {
    const shop = await d.shop();
    const other = await d.shop();
    const manager = await d.manager(shop.id);
    const otherManager = await d.manager(other.id);
    await report([
      { kind: 'shop_view', id: shop.id },
      { kind: 'shop_view', id: shop.id },
      { kind: 'tap_phone', id: shop.id },
      { kind: 'shop_view', id: other.id },
    ]);
    await t.app.insights?.flush();

    const own = await d.call(manager, 'GET', `/api/insights/shops/${shop.id}`);
    expect(own.statusCode, own.body).toBe(200);
    const numbers = own.json() as ShopInsights;
    expect(numbers.totals).toMatchObject({ shop_view: 2, tap_phone: 1 });
    expect(numbers.viewsPerDay.at(-1)).toEqual({ day: d.today(), n: 2 });

    expect((await d.call(otherManager, 'GET', `/api/insights/shops/${shop.id}`)).statusCode).toBe(403);
    expect((await d.call(manager, 'GET', `/api/insights/shops/${other.id}`)).statusCode).toBe(403);
    expect((await d.call(d.user, 'GET', `/api/insights/shops/${shop.id}`)).statusCode).toBe(403);
    // A shop's id in capitals names no shop of theirs: refused, their own shop's too.
    expect((await d.call(manager, 'GET', `/api/insights/shops/${other.id.toUpperCase()}`)).statusCode).toBe(
      403,
    );
    expect((await d.call(manager, 'GET', `/api/insights/shops/${shop.id.toUpperCase()}`)).statusCode).toBe(
      403,
    );
    // The mall's report is the office's alone, however the path is spelt.
    for (const path of ['/api/insights', '/api/insights/', '/api/insights?from=2026-11-01'])
      expect((await d.call(manager, 'GET', path)).statusCode, path).toBe(403);
    expect((await d.call(d.admin, 'GET', `/api/insights/shops/${shop.id}`)).statusCode).toBe(200);
  });

  it('refuses a range that ends before it starts, or longer than a year', async () => {
    const backwards = await d.call(d.admin, 'GET', '/api/insights?from=2026-11-20&to=2026-11-01');
    expect(backwards.statusCode).toBe(400);
    const long = await d.call(d.admin, 'GET', '/api/insights?from=2024-01-01&to=2026-11-01');
    expect(long.statusCode).toBe(400);
  });
});
