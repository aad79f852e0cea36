// The large-mall generator (npm run seed:large, npm run bench), at a small size: every row satisfies the
// schema, offers are a mix around `today`, products link only their own shop's offers, and the API
// serves what it made. The full size is exercised by the benchmark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mallToday } from '../lib/mall-time';
import { createTestApp, registerAs, TEST_TIME_ZONE, type TestApp } from '../test/harness';
import { LARGE_MALL_TABLES, LargeMallNotEmptyError, type LargeMallSize, loadLargeMall } from './large-mall';

const SIZE: LargeMallSize = {
  categories: 35,
  floors: 9,
  shops: 60,
  offers: 150,
  products: 1_200,
  events: 120,
};

describe('loadLargeMall', () => {
  let t: TestApp;
  let today: string;
  const progress: { table: string; done: number; total: number }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    today = mallToday(TEST_TIME_ZONE, t.now());
    await loadLargeMall(t.database.db, today, (event) => progress.push(event), SIZE);
  });
  afterAll(() => t.close());

  const query = async <T>(text: string) => (await t.database.pool.query(text)).rows as T[];

  it('fills every table to its size and reports progress per table up to the total', async () => {
    for (const table of LARGE_MALL_TABLES) {
      const [row] = await query<{ n: number }>(`select count(*)::int as n from ${table}`);
      expect(row?.n, table).toBe(SIZE[table]);
      const events = progress.filter((event) => event.table === table);
      expect(events[0]?.done).toBe(0);
      expect(events.at(-1)).toEqual({ table, done: SIZE[table], total: SIZE[table] });
    }
  });

  it('leaves the tables vacuumed and analysed (statistics, and a visibility map for index-only scans)', async () => {
    for (const table of LARGE_MALL_TABLES) {
      const [row] = await query<{ tuples: number }>(
        `select reltuples::int as tuples from pg_class where relname = '${table}'`,
      );
      expect(row?.tuples, table).toBe(SIZE[table]);
    }
    // Statistics reach pg_stat_user_tables from the vacuuming connection within about a second.
    await expect
      .poll(
        async () =>
          (
            await query<{ relname: string }>(
              `select relname from pg_stat_user_tables where vacuum_count > 0 order by relname`,
            )
          ).map((row) => row.relname),
        { timeout: 10_000, interval: 250 },
      )
      .toEqual(expect.arrayContaining([...LARGE_MALL_TABLES]));
  });

  it('keeps names unique where the schema says so, within the length limits', async () => {
    const [places] = await query<{ c: number; f: number }>(
      `select (select count(distinct lower(name)) from categories)::int as c,
              (select count(distinct lower(name)) from floors)::int as f`,
    );
    expect(places).toEqual({ c: SIZE.categories, f: SIZE.floors });
    const [lengths] = await query<Record<string, number>>(
      `select (select max(length(name)) from categories)::int as category,
              (select max(length(name)) from shops)::int as shop,
              (select max(length(name)) from products)::int as product,
              (select max(length(title)) from offers)::int as offer,
              (select count(distinct name) from shops)::int as shop_names`,
    );
    expect(lengths?.category).toBeLessThanOrEqual(60);
    expect(lengths?.shop).toBeLessThanOrEqual(120);
    expect(lengths?.product).toBeLessThanOrEqual(120);
    expect(lengths?.offer).toBeLessThanOrEqual(120);
    expect(lengths?.shop_names).toBe(SIZE.shops);
  });

  it('makes active, expired and future offers, and links about a third of products to their shop’s', async () => {
    const [offers] = await query<Record<string, number>>(
      `select count(*) filter (where start_date <= '${today}' and end_date >= '${today}')::int as active,
              count(*) filter (where end_date < '${today}')::int as expired,
              count(*) filter (where start_date > '${today}')::int as future,
              count(*) filter (where discount not between 1 and 100 or end_date < start_date)::int as bad
       from offers`,
    );
    expect(offers?.active).toBeGreaterThan(0);
    expect(offers?.expired).toBeGreaterThan(0);
    expect(offers?.future).toBeGreaterThan(0);
    expect(offers?.bad).toBe(0);
    const [products] = await query<Record<string, number>>(
      `select count(p.offer_id)::int as linked,
              count(*) filter (where o.shop_id <> p.shop_id)::int as other_shop,
              count(*) filter (where p.price < 0 or p.price <> round(p.price, 2))::int as bad_price,
              count(distinct p.shop_id)::int as shops
       from products p left join offers o on o.id = p.offer_id`,
    );
    expect(products?.linked).toBeGreaterThan(SIZE.products * 0.25);
    expect(products?.linked).toBeLessThan(SIZE.products * 0.42);
    expect(products?.other_shop).toBe(0);
    expect(products?.bad_price).toBe(0);
    expect(products?.shops).toBeGreaterThan(SIZE.shops * 0.9);
  });

  it('makes events of shops and of the mall, one-off and repeating, ahead and past', async () => {
    const [events] = await query<Record<string, number>>(
      `select count(*) filter (where shop_id is null and place_kind = 'floor')::int as mall,
              count(*) filter (where shop_id = place_shop_id and place_kind = 'shop')::int as shop,
              count(distinct shop_id)::int as shops,
              count(*) filter (where repeat->>'freq' = 'weekly')::int as weekly,
              count(*) filter (where repeat->>'freq' = 'monthly')::int as monthly,
              count(*) filter (where repeat is null and start_date >= '${today}')::int as ahead,
              count(*) filter (where repeat is null and end_date < '${today}')::int as past,
              count(*) filter (where all_day)::int as all_day,
              count(*) filter (where status = 'cancelled')::int as cancelled,
              count(*) filter (where not approved)::int as unapproved,
              count(*) filter (where cardinality(tags) = 0)::int as untagged
       from events`,
    );
    expect(events?.mall).toBeGreaterThan(0);
    expect((events?.mall ?? 0) + (events?.shop ?? 0)).toBe(SIZE.events);
    expect(events?.shops).toBeGreaterThan(Math.min(SIZE.shops, SIZE.events) * 0.6);
    for (const kind of ['weekly', 'monthly', 'ahead', 'past', 'all_day', 'cancelled'])
      expect(events?.[kind], kind).toBeGreaterThan(0);
    expect(events?.unapproved).toBe(0);
    expect(events?.untagged).toBe(0);
  });

  it('serves the generated mall through the API (ids are valid UUIDs for the routes)', async () => {
    const user = await registerAs(t.app, 'user');
    const shops = await t.app.inject({ url: '/api/shops?pageSize=5', headers: user.headers });
    expect(shops.statusCode).toBe(200);
    expect(shops.json().total).toBe(SIZE.shops);
    // The events page's list: the next 60 days of occurrences, repeats expanded.
    const events = await t.app.inject({ url: '/api/events', headers: user.headers });
    expect(events.statusCode).toBe(200);
    expect(events.json().total).toBeGreaterThan(SIZE.events / 2);
    const shopId = shops.json().items[0].id as string;
    for (const url of [
      `/api/shops/${shopId}`,
      `/api/products?shopId=${shopId}`,
      `/api/offers?shopId=${shopId}&active=true`,
      '/api/products?q=classic',
      '/api/events?pageSize=100',
      '/api/events/calendar.ics',
      '/api/events/feed.json',
    ]) {
      const response = await t.app.inject({ url, headers: user.headers });
      expect(response.statusCode, url).toBe(200);
    }
  });

  it('refuses a mall that already has data, changing nothing', async () => {
    await expect(loadLargeMall(t.database.db, today, () => {}, SIZE)).rejects.toBeInstanceOf(
      LargeMallNotEmptyError,
    );
    const [row] = await query<{ n: number }>('select count(*)::int as n from products');
    expect(row?.n).toBe(SIZE.products);
  });
});
