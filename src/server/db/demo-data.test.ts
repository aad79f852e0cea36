import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, gt, gte, isNotNull, lt, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventInput } from '../../shared/event';
import { occurrences, upcoming } from '../modules/events/recurrence';
import { type Database, openEmbedded } from './client';
import { addDays, type DemoSummary, demoEvents, isDemoDataEnabled, loadDemoData } from './demo-data';
import { runMigrations } from './migrate';
import { amenities, categories, events, floors, mallHours, offers, products, shops } from './schema';

const TODAY = '2026-06-15';

describe('isDemoDataEnabled', () => {
  it('follows on and off whatever the database', () => {
    expect(isDemoDataEnabled('on', false)).toBe(true);
    expect(isDemoDataEnabled('on', true)).toBe(true);
    expect(isDemoDataEnabled('off', true)).toBe(false);
    expect(isDemoDataEnabled('off', false)).toBe(false);
  });

  it('defaults to on for the embedded database and off for PostgreSQL', () => {
    expect(isDemoDataEnabled(undefined, true)).toBe(true);
    expect(isDemoDataEnabled(undefined, false)).toBe(false);
    expect(isDemoDataEnabled('', true)).toBe(true);
    expect(isDemoDataEnabled('', false)).toBe(false);
  });

  it('refuses any other value', () => {
    for (const value of ['yes', 'true', '1', 'ON', ' on']) {
      expect(() => isDemoDataEnabled(value, true)).toThrow('MALL_DEMO_DATA must be on or off');
    }
  });
});

describe('addDays', () => {
  it('does calendar arithmetic across months, years and leap days', () => {
    expect(addDays(TODAY, 0)).toBe(TODAY);
    expect(addDays(TODAY, 16)).toBe('2026-07-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
  });

  it('refuses malformed or impossible dates', () => {
    for (const value of ['2026-6-15', '15/06/2026', '2026-02-30', '', '2026-06-15T00:00:00Z']) {
      expect(() => addDays(value, 1)).toThrow('YYYY-MM-DD');
    }
  });
});

describe('demoEvents', () => {
  const ZONE = 'Asia/Kolkata';
  const timing = (event: ReturnType<typeof demoEvents>[number]) => ({
    allDay: false,
    startDate: event.startDate,
    startTime: event.startTime,
    endDate: event.endDate ?? event.startDate,
    endTime: event.endTime,
    repeat: event.repeat ?? null,
  });

  it('are events the forms would accept', () => {
    for (const event of demoEvents(TODAY)) {
      const { place, shop, ...rest } = event;
      const parsed = EventInput.safeParse({
        ...rest,
        endDate: rest.endDate ?? rest.startDate,
        allDay: false,
        shopId: shop ? randomUUID() : null,
        placeKind: place.kind,
        placeId: place.kind === 'mall' ? null : randomUUID(),
      });
      expect(parsed.error?.issues ?? [], event.title).toEqual([]);
    }
  });

  // Whatever the day of the week or of the month a mall is installed on.
  it('always has something in the next two weeks, and every event a date ahead', () => {
    for (let day = 0; day < 62; day += 1) {
      const today = addDays('2026-01-01', day);
      const seeds = demoEvents(today);
      for (const event of seeds) {
        expect(upcoming(timing(event), today, ZONE, 1), `${event.title} from ${today}`).toHaveLength(1);
      }
      const soon = seeds.flatMap((event) => occurrences(timing(event), today, addDays(today, 13), ZONE));
      expect(soon.length, today).toBeGreaterThanOrEqual(5);
    }
  });
});

describe('loadDemoData', () => {
  let database: Database;
  let dataDir: string;
  let summary: DemoSummary;

  const counts = async () => {
    const { db } = database;
    return {
      categories: await db.$count(categories),
      floors: await db.$count(floors),
      shops: await db.$count(shops),
      products: await db.$count(products),
      offers: await db.$count(offers),
      events: await db.$count(events),
    };
  };

  beforeAll(
    async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-demo-'));
      database = await openEmbedded(dataDir);
      await runMigrations(database);
      summary = await loadDemoData(database.db, TODAY);
    },
    30_000, // Vitest 4 hooks take the timeout as a number.
  );

  afterAll(async () => {
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('inserts the whole mall and reports what it inserted', async () => {
    const expected = { categories: 8, floors: 5, shops: 24, products: 150, offers: 20, events: 7 };
    expect(summary).toEqual(expected);
    expect(await counts()).toEqual(expected);
    const floorsByLevel = await database.db
      .select({ name: floors.name, level: floors.level })
      .from(floors)
      .orderBy(floors.level);
    expect(floorsByLevel).toEqual([
      { name: 'Lower Ground', level: -1 },
      { name: 'Ground Floor', level: 0 },
      { name: 'First Floor', level: 1 },
      { name: 'Second Floor', level: 2 },
      { name: 'Third Floor', level: 3 },
    ]);
  });

  it('gives every floor amenities, the Lower Ground its parking entrance', async () => {
    const rows = await database.db
      .select({ floor: floors.name, kind: amenities.kind })
      .from(amenities)
      .innerJoin(floors, eq(floors.id, amenities.floorId));
    expect(new Set(rows.map((row) => row.floor)).size).toBe(5);
    expect(rows).toContainEqual({ floor: 'Lower Ground', kind: 'parking-entrance' });
  });

  it('dates offers around today: 10 active, 5 expired, 5 future', async () => {
    const { db } = database;
    expect(await db.$count(offers, and(lte(offers.startDate, TODAY), gte(offers.endDate, TODAY)))).toBe(10);
    expect(await db.$count(offers, lt(offers.endDate, TODAY))).toBe(5);
    expect(await db.$count(offers, gt(offers.startDate, TODAY))).toBe(5);
    for (const offer of await db.select().from(offers)) {
      expect(Number.isInteger(offer.discount)).toBe(true);
      expect(offer.discount).toBeGreaterThanOrEqual(5);
      expect(offer.discount).toBeLessThanOrEqual(60);
      expect(offer.startDate <= offer.endDate).toBe(true);
    }
  });

  it('gives the mall approved events ahead of today: repeating, tagged, one cancelled', async () => {
    const rows = await database.db
      .select({
        title: events.title,
        shop: shops.name,
        placeKind: events.placeKind,
        approved: events.approved,
        reviewState: events.reviewState,
        status: events.status,
        tags: events.tags,
        repeat: events.repeat,
        startDate: events.startDate,
      })
      .from(events)
      .leftJoin(shops, eq(shops.id, events.shopId));
    expect(rows.every((row) => row.approved && row.reviewState === null)).toBe(true);
    expect(rows.filter((row) => row.status === 'cancelled').map((row) => row.title)).toEqual([
      'Acoustic Evening at the Food Court',
    ]);
    expect(rows.filter((row) => row.repeat?.freq === 'weekly').length).toBeGreaterThanOrEqual(2);
    expect(rows.filter((row) => row.repeat?.freq === 'monthly').length).toBe(1);
    expect(new Set(rows.map((row) => row.placeKind))).toEqual(new Set(['mall', 'floor', 'amenity', 'shop']));
    expect(rows.find((row) => row.title.startsWith('Book Signing'))?.shop).toBe('Paperleaf Books');
    // The tag filter and the per-tag feeds have something: a tag shared by two events.
    const tags = rows.flatMap((row) => row.tags);
    expect(tags.filter((tag) => tag === 'workshop')).toHaveLength(2);
    // The late-night evenings are nights the mall's doors stay open to midnight.
    const lateNight = rows.find((row) => row.title === 'Late-Night Shopping');
    const [hours] = await database.db.select({ hours: mallHours.hours }).from(mallHours);
    expect(hours?.hours?.special).toContainEqual({
      date: lateNight?.startDate,
      intervals: [{ open: '07:00', close: '24:00' }],
      note: 'Late-night shopping',
    });
  });

  it('gives every shop products, contact details and opening hours', async () => {
    const { db } = database;
    const allShops = await db.select().from(shops);
    const allProducts = await db.select({ shopId: products.shopId }).from(products);
    for (const shop of allShops) {
      expect(allProducts.filter((p) => p.shopId === shop.id).length, shop.name).toBeGreaterThanOrEqual(1);
      expect(shop.description, shop.name).not.toBe('');
      expect(shop.location, shop.name).toMatch(/^Unit /);
      expect(shop.contact, shop.name).toMatch(/^\+91 80 4000 \d{4} · hello@[a-z0-9-]+\.example$/);
      expect(shop.openingHours, shop.name).not.toBe('');
    }
    expect(new Set(allShops.map((s) => s.name)).size).toBe(24);
  });

  it("links about 25 products to offers of the product's own shop", async () => {
    const { db } = database;
    const linked = await db
      .select({ productShop: products.shopId, offerShop: offers.shopId })
      .from(products)
      .innerJoin(offers, eq(products.offerId, offers.id));
    expect(linked).toHaveLength(25);
    expect(await db.$count(products, isNotNull(products.offerId))).toBe(25);
    for (const row of linked) expect(row.productShop).toBe(row.offerShop);
  });

  it('stores prices with two decimals, never negative', async () => {
    const rows = await database.db.select({ name: products.name, price: products.price }).from(products);
    for (const { name, price } of rows) {
      expect(price, name).toMatch(/^\d+\.\d{2}$/);
      expect(Number(price), name).toBeGreaterThanOrEqual(0);
    }
  });

  it('fails on a second run and leaves the first copy alone', async () => {
    const before = await counts();
    await expect(loadDemoData(database.db, TODAY)).rejects.toMatchObject({
      cause: { code: '23505', constraint: expect.stringMatching(/^categories_name_(glyph_)?key_key$/) },
    });
    expect(await counts()).toEqual(before);
  });

  it('refuses a malformed date without touching the database', async () => {
    const before = await counts();
    await expect(loadDemoData(database.db, '15/06/2026')).rejects.toThrow('YYYY-MM-DD');
    expect(await counts()).toEqual(before);
  });
});
