// Offers (/api/offers): validation, the dates checked against the stored ones on edit, moving and
// deleting, the list, and "active" at the edges of the mall's calendar days (Asia/Kolkata in tests) —
// including an offer that ends while nobody touches it, seen through offers, products and /api/stats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Offer, ReviewedOffer } from '../../../shared/offer';
import type { Product } from '../../../shared/product';
import { mallToday } from '../../lib/mall-time';
import {
  addDays,
  type Directory,
  expectError,
  expectFieldError,
  openDirectory,
  uniqueName,
  unknownId,
} from '../../test/catalog-fixtures';
import { createTestApp, TEST_TIME_ZONE, type TestApp } from '../../test/harness';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

const END_BEFORE_START = 'End date must be after start date';
const DISCOUNT = 'Discount must be between 1 and 100';
const post = (payload: unknown) => d.call(d.admin, 'POST', '/api/offers', payload);
const patch = (id: string, payload: unknown) => d.call(d.admin, 'PATCH', `/api/offers/${id}`, payload);
const remove = (id: string) => d.call(d.admin, 'DELETE', `/api/offers/${id}`);
const getOffer = async (id: string) => (await d.call(d.user, 'GET', `/api/offers/${id}`)).json() as Offer;
const getProduct = async (id: string) =>
  (await d.call(d.user, 'GET', `/api/products/${id}`)).json() as Product;

interface OfferPageBody {
  items: Offer[];
  total: number;
  page: number;
  pageSize: number;
}
async function list(query: string): Promise<OfferPageBody> {
  const response = await d.call(d.user, 'GET', `/api/offers?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as OfferPageBody;
}
const ids = (page: OfferPageBody) => page.items.map((offer) => offer.id).sort();

interface Stats {
  shops: number;
  products: number;
  offers: number;
  activeOffers: number;
}
async function stats(): Promise<Stats> {
  const response = await d.call(d.admin, 'GET', '/api/stats');
  expect(response.statusCode).toBe(200);
  return response.json() as Stats;
}
/** /api/stats agrees with the offers list and the database. */
async function expectStatsAgree(): Promise<Stats> {
  const figures = await stats();
  expect(figures.activeOffers).toBe((await list('active=true&pageSize=1')).total);
  expect(figures.offers).toBe((await list('pageSize=1')).total);
  expect(figures.offers).toBe(await d.count('offers'));
  expect(figures.products).toBe(await d.count('products'));
  expect(figures.shops).toBe(await d.count('shops'));
  return figures;
}

describe('create and read', () => {
  it('creates an offer and answers it with calendar dates, the shop name and whether it is active', async () => {
    const shop = await d.shop();
    const title = uniqueName('Diwali Sale');
    const startDate = d.today();
    const endDate = d.day(10);
    const response = await post({
      title: ` ${title} `,
      description: '  Up to 30% off  ',
      discount: 30,
      startDate,
      endDate,
      shopId: shop.id,
    });
    expect(response.statusCode).toBe(201);
    const { approved, review, ...offer } = response.json() as ReviewedOffer;
    expect(offer).toEqual({
      id: expect.any(String),
      title,
      description: 'Up to 30% off',
      discount: 30,
      startDate,
      endDate,
      shopId: shop.id,
      shopName: shop.name,
      active: true,
      status: 'active',
      createdAt: expect.any(String),
    });
    // An admin's offer is live at once, nothing waits for review; shoppers' reads carry neither field.
    expect({ approved, review }).toEqual({ approved: true, review: null });
    expect(await getOffer(offer.id)).toEqual(offer);
    const stored = await t.database.pool.query(
      'select title, discount, start_date::text as start, end_date::text as end, shop_id from offers where id = $1',
      [offer.id],
    );
    expect(stored.rows[0]).toEqual({ title, discount: 30, start: startDate, end: endDate, shop_id: shop.id });
  });

  it('accepts a one-day offer (end on the start date), a 1% one, a 100% one and 29 February of a leap year', async () => {
    const shop = await d.shop();
    const base = { title: uniqueName(), shopId: shop.id };
    for (const body of [
      { ...base, discount: 1, startDate: d.today(), endDate: d.today() },
      { ...base, discount: 100, startDate: d.today(), endDate: d.day(1) },
      { ...base, discount: 5, startDate: '2028-02-29', endDate: '2028-03-01' },
    ]) {
      const response = await post(body);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        discount: body.discount,
        startDate: body.startDate,
        endDate: body.endDate,
      });
    }
  });

  it('keeps emoji, Arabic and Hindi exactly as sent', async () => {
    const text = { title: `تخفيضات 🎉 ${uniqueName()}`, description: 'दिवाली धमाका' };
    const offer = await d.offer(text);
    expect(offer).toMatchObject(text);
    expect(await getOffer(offer.id)).toMatchObject(text);
  });

  it('answers 404 "Offer not found" for an offer that does not exist', async () => {
    const id = unknownId();
    expectError(await d.call(d.user, 'GET', `/api/offers/${id}`), 404, 'NOT_FOUND', 'Offer not found');
    expectError(await patch(id, { title: uniqueName() }), 404, 'NOT_FOUND', 'Offer not found');
    expectError(await remove(id), 404, 'NOT_FOUND', 'Offer not found');
  });
});

describe('validation', () => {
  let shopId = '';
  beforeAll(async () => {
    shopId = (await d.shop()).id;
  });
  const base = (): Record<string, unknown> => ({
    title: uniqueName('Valid Offer'),
    discount: 10,
    startDate: d.today(),
    endDate: d.day(7),
    shopId,
  });
  const without = (key: string) => {
    const body = base();
    delete body[key];
    return body;
  };

  type Case = [string, () => Record<string, unknown>, string, string];
  const cases: Case[] = [
    ['title missing', () => without('title'), 'title', 'Title is required'],
    ['title empty', () => ({ ...base(), title: '' }), 'title', 'Title is required'],
    ['title only spaces', () => ({ ...base(), title: '   ' }), 'title', 'Title is required'],
    [
      'title of 10,000 characters',
      () => ({ ...base(), title: 't'.repeat(10_000) }),
      'title',
      'Title must be at most 120 characters',
    ],
    ['discount 0', () => ({ ...base(), discount: 0 }), 'discount', DISCOUNT],
    ['discount 101', () => ({ ...base(), discount: 101 }), 'discount', DISCOUNT],
    ['discount 1.5', () => ({ ...base(), discount: 1.5 }), 'discount', DISCOUNT],
    ['discount "10"', () => ({ ...base(), discount: '10' }), 'discount', DISCOUNT],
    ['discount -5', () => ({ ...base(), discount: -5 }), 'discount', DISCOUNT],
    ['discount null', () => ({ ...base(), discount: null }), 'discount', DISCOUNT],
    ['discount missing', () => without('discount'), 'discount', DISCOUNT],
    ['startDate missing', () => without('startDate'), 'startDate', 'Start date is required'],
    ['startDate empty', () => ({ ...base(), startDate: '' }), 'startDate', 'Start date is required'],
    ['endDate missing', () => without('endDate'), 'endDate', 'End date is required'],
    ['endDate empty', () => ({ ...base(), endDate: '' }), 'endDate', 'End date is required'],
    [
      'endDate before startDate',
      () => ({ ...base(), startDate: d.day(5), endDate: d.day(4) }),
      'endDate',
      END_BEFORE_START,
    ],
    [
      'startDate 2025-02-30',
      () => ({ ...base(), startDate: '2025-02-30' }),
      'startDate',
      'Enter a real date',
    ],
    [
      'endDate 2025-02-30',
      () => ({ ...base(), startDate: '2025-02-01', endDate: '2025-02-30' }),
      'endDate',
      'Enter a real date',
    ],
    [
      'endDate 2025-02-29 (not a leap year)',
      () => ({ ...base(), startDate: '2025-02-01', endDate: '2025-02-29' }),
      'endDate',
      'Enter a real date',
    ],
    [
      'startDate 2025-13-01',
      () => ({ ...base(), startDate: '2025-13-01' }),
      'startDate',
      'Enter a real date',
    ],
    [
      'startDate 2025-2-3',
      () => ({ ...base(), startDate: '2025-2-3' }),
      'startDate',
      'Enter a date as YYYY-MM-DD',
    ],
    [
      'startDate as a timestamp',
      () => ({ ...base(), startDate: `${d.today()}T00:00:00.000Z` }),
      'startDate',
      'Enter a date as YYYY-MM-DD',
    ],
    ['shopId missing', () => without('shopId'), 'shopId', 'Shop is required'],
    ['shopId not a uuid', () => ({ ...base(), shopId: 'shop' }), 'shopId', 'Shop is required'],
    ['shopId unknown', () => ({ ...base(), shopId: unknownId() }), 'shopId', 'Shop is required'],
  ];

  it.each(cases)(
    'refuses %s with the form message, writing nothing',
    async (_label, body, field, message) => {
      const before = await d.count('offers');
      expectFieldError(await post(body()), field, message);
      expect(await d.count('offers')).toBe(before);
    },
  );

  it('refuses unknown fields (active, shopName, an id), writing nothing', async () => {
    const before = await d.count('offers');
    for (const extra of [{ active: true }, { shopName: 'X' }, { id: unknownId() }, { createdAt: 'now' }]) {
      const response = await post({ ...base(), ...extra });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION');
    }
    expect(await d.count('offers')).toBe(before);
  });

  it('checks an edited end date against the stored start date, and an edited start against the stored end', async () => {
    const offer = await d.offer({ shopId, startDate: d.day(10), endDate: d.day(20) });
    const before = await d.row('offers', offer.id);
    expectFieldError(await patch(offer.id, { endDate: d.day(9) }), 'endDate', END_BEFORE_START);
    expect(await d.row('offers', offer.id)).toEqual(before);
    expectFieldError(await patch(offer.id, { startDate: d.day(21) }), 'endDate', END_BEFORE_START);
    expect(await d.row('offers', offer.id)).toEqual(before);
    expectFieldError(
      await patch(offer.id, { startDate: d.day(3), endDate: d.day(2) }),
      'endDate',
      END_BEFORE_START,
    );
    expect(await d.row('offers', offer.id)).toEqual(before);

    const oneDay = await patch(offer.id, { endDate: d.day(10) });
    expect(oneDay.statusCode).toBe(200);
    expect(oneDay.json()).toMatchObject({ startDate: d.day(10), endDate: d.day(10) });
    const moved = await patch(offer.id, { startDate: d.day(1), endDate: d.day(2) });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toEqual({
      ...offer,
      startDate: d.day(1),
      endDate: d.day(2),
      active: false,
      status: 'upcoming',
    });
  });

  it('refuses other bad edits with the form message, leaving the row as it was', async () => {
    const offer = await d.offer({ shopId });
    const before = await d.row('offers', offer.id);
    const bad: [Record<string, unknown>, string, string][] = [
      [{ title: '  ' }, 'title', 'Title is required'],
      [{ discount: 0 }, 'discount', DISCOUNT],
      [{ discount: 101 }, 'discount', DISCOUNT],
      [{ discount: '10' }, 'discount', DISCOUNT],
      [{ startDate: '' }, 'startDate', 'Start date is required'],
      [{ endDate: '2025-02-30' }, 'endDate', 'Enter a real date'],
      [{ shopId: unknownId() }, 'shopId', 'Shop is required'],
    ];
    for (const [body, field, message] of bad) {
      expectFieldError(await patch(offer.id, body), field, message);
      expect(await d.row('offers', offer.id)).toEqual(before);
    }
    expect((await patch(offer.id, { active: false })).statusCode).toBe(400);
    expect(await d.row('offers', offer.id)).toEqual(before);
  });
});

describe('moving and deleting', () => {
  it('moves an offer that no product uses to another shop', async () => {
    const offer = await d.offer();
    const target = await d.shop();
    const response = await patch(offer.id, { shopId: target.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...offer, shopId: target.id, shopName: target.name });
    expect((await d.row('offers', offer.id))?.shop_id).toBe(target.id);
  });

  it('refuses moving an offer that products use to another shop (409), changing nothing', async () => {
    const offer = await d.offer();
    const product = await d.product({ shopId: offer.shopId, offerId: offer.id });
    const target = await d.shop();
    const before = await d.row('offers', offer.id);
    const productBefore = await d.row('products', product.id);
    const response = await patch(offer.id, { shopId: target.id, title: uniqueName('Moved') });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('IN_USE');
    expect(await d.row('offers', offer.id)).toEqual(before);
    expect(await d.row('products', product.id)).toEqual(productBefore);

    // Naming its own shop is no move.
    const same = await patch(offer.id, { shopId: offer.shopId, discount: 25 });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ shopId: offer.shopId, discount: 25 });
  });

  it('takes a deleted offer off its products, which keep their shop; other products keep theirs', async () => {
    const shop = await d.shop();
    const doomed = await d.offer({ shopId: shop.id, discount: 50 });
    const kept = await d.offer({ shopId: shop.id, discount: 10 });
    const first = await d.product({ shopId: shop.id, offerId: doomed.id, price: 20 });
    const second = await d.product({ shopId: shop.id, offerId: doomed.id, price: 30 });
    const other = await d.product({ shopId: shop.id, offerId: kept.id, price: 40 });
    expect(first.offerPrice).toBe('10.00');
    const productsBefore = await d.count('products');

    const response = await remove(doomed.id);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await d.row('offers', doomed.id)).toBeUndefined();
    expect(await d.count('products')).toBe(productsBefore);
    expect(await d.countWhere('products', 'offer_id', doomed.id)).toBe(0);
    for (const product of [first, second]) {
      expect(await d.row('products', product.id)).toMatchObject({ shop_id: shop.id, offer_id: null });
      expect(await getProduct(product.id)).toEqual({
        ...product,
        offerId: null,
        offer: null,
        offerPrice: null,
      });
    }
    expect(await d.row('products', other.id)).toMatchObject({ shop_id: shop.id, offer_id: kept.id });
    expect((await getProduct(other.id)).offerPrice).toBe('36.00');
    expect((await d.call(d.user, 'GET', `/api/offers/${doomed.id}`)).statusCode).toBe(404);
    expect((await remove(doomed.id)).statusCode).toBe(404);
  });
});

describe('list', () => {
  it('searches titles case-insensitively for text they contain, % and _ taken literally, and filters by shop', async () => {
    const shop = await d.shop();
    const other = await d.shop();
    const token = uniqueName('Oq');
    const a = await d.offer({ shopId: shop.id, title: `${token} 50% off` });
    await d.offer({ shopId: shop.id, title: `${token} 500 off` });
    const c = await d.offer({ shopId: other.id, title: `Mega ${token} flash_sale` });
    await d.offer({ shopId: other.id, title: `Mega ${token} flashXsale` });

    const q = (text: string, extra = '') => list(`q=${encodeURIComponent(text)}${extra}`);
    expect((await q(token.toUpperCase())).total).toBe(4);
    expect(ids(await q(`${token.toLowerCase()} 50%`))).toEqual([a.id]);
    expect(ids(await q('flash_sale', `&shopId=${other.id}`))).toEqual([c.id]);
    const byShop = await list(`shopId=${shop.id}`);
    expect(byShop.total).toBe(2);
    expect(byShop.items.every((offer) => offer.shopId === shop.id && offer.shopName === shop.name)).toBe(
      true,
    );
  });

  it('orders active offers first, then by end date, in disjoint stable pages', async () => {
    const shop = await d.shop();
    const make = (title: string, start: number, end: number) =>
      d.offer({ shopId: shop.id, title, startDate: d.day(start), endDate: d.day(end) });
    const past = await make('p past', -9, -2);
    const later = await make('a later', -1, 9);
    const soon = await make('b soon', -1, 2);
    const soonToo = await make('a soon too', 0, 2);
    const future = await make('f future', 1, 3);
    const farFuture = await make('c far future', 5, 6);
    const expected = [soonToo, soon, later, past, future, farFuture].map((offer) => offer.id);

    const all = await list(`shopId=${shop.id}`);
    expect(all.items.map((offer) => offer.id)).toEqual(expected);
    expect(all.items.map((offer) => offer.active)).toEqual([true, true, true, false, false, false]);
    const pages = [1, 2, 3].map((page) => list(`shopId=${shop.id}&page=${page}&pageSize=2`));
    const paged = (await Promise.all(pages)).flatMap((page) => {
      expect(page.total).toBe(6);
      return page.items.map((offer) => offer.id);
    });
    expect(paged).toEqual(expected);
  });

  it.each(['active=yes', 'active=1', 'pageSize=101', 'page=0', 'shopId=nope', 'title=x'])(
    'refuses ?%s with 400',
    async (query) => {
      const response = await d.call(d.user, 'GET', `/api/offers?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION');
    },
  );
});

describe('active at the edges of the mall day', () => {
  it('counts the start and end dates in, the day after the end and the day before the start out', async () => {
    const today = mallToday(TEST_TIME_ZONE, t.now());
    const shop = await d.shop();
    const before = await stats();
    const make = (title: string, start: number, end: number) =>
      d.offer({
        shopId: shop.id,
        title: `${title} ${uniqueName()}`,
        discount: 20,
        startDate: addDays(today, start),
        endDate: addDays(today, end),
      });
    const startsToday = await make('starts today', 0, 5);
    const endsToday = await make('ends today', -5, 0);
    const onlyToday = await make('only today', 0, 0);
    const endedYesterday = await make('ended yesterday', -5, -1);
    const startsTomorrow = await make('starts tomorrow', 1, 5);
    const active = [startsToday, endsToday, onlyToday];
    const inactive = [endedYesterday, startsTomorrow];

    for (const offer of active) {
      expect(offer.active).toBe(true);
      expect((await getOffer(offer.id)).active).toBe(true);
    }
    for (const offer of inactive) {
      expect(offer.active).toBe(false);
      expect((await getOffer(offer.id)).active).toBe(false);
    }
    // The label the admin list shows is the server's decision on the mall's date, not the browser's.
    for (const offer of active) expect((await getOffer(offer.id)).status).toBe('active');
    expect((await getOffer(endedYesterday.id)).status).toBe('expired');
    expect((await getOffer(startsTomorrow.id)).status).toBe('upcoming');

    const activeList = await list(`shopId=${shop.id}&active=true`);
    expect(ids(activeList)).toEqual(active.map((offer) => offer.id).sort());
    expect(activeList.total).toBe(3);
    expect(activeList.items.every((offer) => offer.active)).toBe(true);
    const inactiveList = await list(`shopId=${shop.id}&active=false`);
    expect(ids(inactiveList)).toEqual(inactive.map((offer) => offer.id).sort());
    expect(inactiveList.total).toBe(2);
    expect(inactiveList.items.every((offer) => !offer.active)).toBe(true);

    // Every offer listed as active is active, across the whole mall.
    const everywhere = await list('active=true&pageSize=100');
    for (const offer of everywhere.items) {
      expect(offer.startDate <= today && offer.endDate >= today, JSON.stringify(offer)).toBe(true);
    }

    for (const offer of [...active, ...inactive]) {
      const product = await d.product({ shopId: shop.id, offerId: offer.id, price: 100 });
      expect(product.offer).toEqual({
        id: offer.id,
        title: offer.title,
        discount: 20,
        endDate: offer.endDate,
        active: offer.active,
      });
      expect(product.offerPrice).toBe(offer.active ? '80.00' : null);
    }

    const after = await expectStatsAgree();
    expect(after.activeOffers).toBe(before.activeOffers + 3);
    expect(after.offers).toBe(before.offers + 5);
  });

  it('ends an offer when the mall clock passes its end date, without anyone saving it again', async () => {
    const today = mallToday(TEST_TIME_ZONE, t.now());
    const shop = await d.shop();
    const ending = await d.offer({
      shopId: shop.id,
      discount: 15,
      startDate: addDays(today, -3),
      endDate: today,
    });
    const starting = await d.offer({
      shopId: shop.id,
      discount: 15,
      startDate: addDays(today, 1),
      endDate: addDays(today, 3),
    });
    const product = await d.product({ shopId: shop.id, offerId: ending.id, price: 100 });
    const stored = await d.row('offers', ending.id);
    expect(product.offerPrice).toBe('85.00');

    // One minute before midnight in the mall (Asia/Kolkata is UTC+05:30 all year).
    const midnight = Date.parse(`${addDays(today, 1)}T00:00:00+05:30`);
    t.advanceClock(midnight - t.now().getTime() - 60_000);
    expect(mallToday(TEST_TIME_ZONE, t.now())).toBe(today);
    expect((await getOffer(ending.id)).active).toBe(true);
    expect((await getOffer(starting.id)).active).toBe(false);
    expect(await getProduct(product.id)).toMatchObject({ offer: { active: true }, offerPrice: '85.00' });
    expect(ids(await list(`shopId=${shop.id}&active=true`))).toEqual([ending.id]);
    const lastMinute = await expectStatsAgree();

    t.advanceClock(2 * 60_000);
    expect(mallToday(TEST_TIME_ZONE, t.now())).toBe(addDays(today, 1));
    expect((await getOffer(ending.id)).active).toBe(false);
    expect((await getOffer(starting.id)).active).toBe(true);
    expect(await getProduct(product.id)).toMatchObject({
      offerId: ending.id,
      offer: { id: ending.id, active: false },
      offerPrice: null,
    });
    expect(ids(await list(`shopId=${shop.id}&active=true`))).toEqual([starting.id]);
    expect(ids(await list(`shopId=${shop.id}&active=false`))).toEqual([ending.id]);
    const nextDay = await expectStatsAgree();
    expect(nextDay.offers).toBe(lastMinute.offers);
    expect(await d.row('offers', ending.id)).toEqual(stored);

    t.advanceClock(3 * 24 * 60 * 60_000);
    expect((await getOffer(starting.id)).active).toBe(false);
    expect((await list(`shopId=${shop.id}&active=true`)).total).toBe(0);
    await expectStatsAgree();
  });
});
