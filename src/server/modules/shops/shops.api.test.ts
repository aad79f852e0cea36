// Shops (/api/shops): create, read, edit and delete with their validation, what a delete takes with it,
// and the list's search, filters and pages, all answered from the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shop, ShopDetail } from '../../../shared/shop';
import {
  type Directory,
  expectError,
  expectFieldError,
  openDirectory,
  uniqueName,
  unknownId,
} from '../../test/catalog-fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

const post = (payload: unknown) => d.call(d.admin, 'POST', '/api/shops', payload);
const patch = (id: string, payload: unknown) => d.call(d.admin, 'PATCH', `/api/shops/${id}`, payload);
const remove = (id: string) => d.call(d.admin, 'DELETE', `/api/shops/${id}`);
const get = (id: string) => d.call(d.user, 'GET', `/api/shops/${id}`);

interface ShopPageBody {
  items: Shop[];
  total: number;
  page: number;
  pageSize: number;
}
async function list(query: string): Promise<ShopPageBody> {
  const response = await d.call(d.user, 'GET', `/api/shops?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ShopPageBody;
}
const names = (page: ShopPageBody) => page.items.map((shop) => shop.name);

/** A complete, valid body with a new category and floor. */
async function validBody(): Promise<Record<string, unknown>> {
  return {
    name: uniqueName('Valid Shop'),
    categoryId: (await d.category()).id,
    floorId: (await d.floor()).id,
  };
}

function without(body: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...body };
  delete copy[key];
  return copy;
}

describe('create and read', () => {
  it('creates a shop and answers its detail with the category and floor names and empty counts', async () => {
    const category = await d.category();
    const floor = await d.floor();
    const name = uniqueName('Shop');
    const response = await post({
      name: `  ${name}  `,
      categoryId: category.id,
      floorId: floor.id,
      description: '  Shoes and bags  ',
      location: 'Unit 12',
      contact: '+91 98765 43210',
      openingHours: '10:00–22:00',
    });
    expect(response.statusCode).toBe(201);
    const shop = response.json() as ShopDetail;
    expect(shop).toEqual({
      id: expect.any(String),
      name,
      // Made by the database from the name (migration 0016; slugs.api.test.ts).
      slug: name.toLowerCase().replaceAll(' ', '-'),
      description: 'Shoes and bags',
      categoryId: category.id,
      category: category.name,
      floorId: floor.id,
      floor: floor.name,
      location: 'Unit 12',
      contact: '+91 98765 43210',
      openingHours: '10:00–22:00',
      // No structured hours unless given (docs/decisions/017).
      hours: null,
      externalCode: null,
      // No images or pin until uploaded and placed (docs/decisions/020).
      logo: null,
      cover: null,
      pin: null,
      createdAt: expect.any(String),
      productCount: 0,
      offerCount: 0,
    });
    expect(await d.row('shops', shop.id)).toMatchObject({
      name,
      description: 'Shoes and bags',
      category_id: category.id,
      floor_id: floor.id,
    });
    expect((await get(shop.id)).json()).toEqual(shop);
  });

  it('stores missing optional fields as empty text', async () => {
    const response = await post(await validBody());
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ description: '', location: '', contact: '', openingHours: '' });
  });

  it('keeps emoji, Arabic and Hindi exactly as sent', async () => {
    const text = {
      name: `🛍️ متجر ${uniqueName()}`,
      description: 'दुकान में आपका स्वागत है 👋',
      location: 'الطابق الأرضي',
      openingHours: 'सुबह १० बजे – रात १० बजे',
    };
    const response = await post({ ...(await validBody()), ...text });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject(text);
    expect((await get(response.json().id)).json()).toMatchObject(text);
    expect(await d.row('shops', response.json().id)).toMatchObject({
      name: text.name,
      description: text.description,
      location: text.location,
      opening_hours: text.openingHours,
    });
  });

  it('answers 404 "Shop not found" for a shop that does not exist', async () => {
    const id = unknownId();
    expectError(await get(id), 404, 'NOT_FOUND', 'Shop not found');
    expectError(await patch(id, { name: uniqueName() }), 404, 'NOT_FOUND', 'Shop not found');
    expectError(await remove(id), 404, 'NOT_FOUND', 'Shop not found');
  });

  it('reports how many products and offers the shop has (what a delete takes with it)', async () => {
    const shop = await d.shop();
    const other = await d.shop();
    const offer = await d.offer({ shopId: shop.id });
    await d.offer({ shopId: shop.id });
    await d.product({ shopId: shop.id, offerId: offer.id });
    await d.product({ shopId: shop.id });
    await d.product({ shopId: shop.id });
    await d.product({ shopId: other.id });
    expect((await get(shop.id)).json()).toMatchObject({ id: shop.id, productCount: 3, offerCount: 2 });
    expect((await get(other.id)).json()).toMatchObject({ id: other.id, productCount: 1, offerCount: 0 });
  });
});

describe('validation', () => {
  type Case = [string, (body: Record<string, unknown>) => Record<string, unknown>, string, string];
  const cases: Case[] = [
    ['name missing', (b) => without(b, 'name'), 'name', 'Name is required'],
    ['name empty', (b) => ({ ...b, name: '' }), 'name', 'Name is required'],
    ['name only spaces', (b) => ({ ...b, name: '   ' }), 'name', 'Name is required'],
    ['name null', (b) => ({ ...b, name: null }), 'name', 'Name is required'],
    [
      'name of 121 characters',
      (b) => ({ ...b, name: 'n'.repeat(121) }),
      'name',
      'Name must be at most 120 characters',
    ],
    [
      'name of 10,000 characters',
      (b) => ({ ...b, name: 'n'.repeat(10_000) }),
      'name',
      'Name must be at most 120 characters',
    ],
    ['categoryId missing', (b) => without(b, 'categoryId'), 'categoryId', 'Category is required'],
    ['categoryId empty', (b) => ({ ...b, categoryId: '' }), 'categoryId', 'Category is required'],
    ['categoryId not a uuid', (b) => ({ ...b, categoryId: 'fashion' }), 'categoryId', 'Category is required'],
    ['categoryId unknown', (b) => ({ ...b, categoryId: unknownId() }), 'categoryId', 'Category is required'],
    ['floorId missing', (b) => without(b, 'floorId'), 'floorId', 'Floor is required'],
    ['floorId empty', (b) => ({ ...b, floorId: '' }), 'floorId', 'Floor is required'],
    ['floorId not a uuid', (b) => ({ ...b, floorId: 'ground' }), 'floorId', 'Floor is required'],
    ['floorId unknown', (b) => ({ ...b, floorId: unknownId() }), 'floorId', 'Floor is required'],
    [
      'description of 2,001 characters',
      (b) => ({ ...b, description: 'd'.repeat(2001) }),
      'description',
      'Description must be at most 2000 characters',
    ],
    [
      'location of 201 characters',
      (b) => ({ ...b, location: 'l'.repeat(201) }),
      'location',
      'Location must be at most 200 characters',
    ],
    [
      'a control character in the name',
      (b) => ({ ...b, name: 'Bad\u0000Name' }),
      'name',
      'Remove the control characters',
    ],
  ];

  it.each(cases)(
    'refuses %s with the form message, writing nothing',
    async (_label, change, field, message) => {
      const body = change(await validBody());
      const before = await d.count('shops');
      expectFieldError(await post(body), field, message);
      expect(await d.count('shops')).toBe(before);
    },
  );

  it('refuses unknown fields (the category by name, an id, a count), writing nothing', async () => {
    const before = await d.count('shops');
    for (const extra of [
      { category: 'Fashion' },
      { id: unknownId() },
      { productCount: 0 },
      { createdAt: 'x' },
    ]) {
      const response = await post({ ...(await validBody()), ...extra });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION');
    }
    expect(await d.count('shops')).toBe(before);
  });

  it('refuses a bad edit with the form message, leaving the row as it was', async () => {
    const shop = await d.shop();
    const before = await d.row('shops', shop.id);
    const bad: [Record<string, unknown>, string, string][] = [
      [{ name: '   ' }, 'name', 'Name is required'],
      [{ name: 'n'.repeat(10_000) }, 'name', 'Name must be at most 120 characters'],
      [{ categoryId: 'nope' }, 'categoryId', 'Category is required'],
      [{ categoryId: unknownId() }, 'categoryId', 'Category is required'],
      [{ floorId: unknownId() }, 'floorId', 'Floor is required'],
      [{ name: uniqueName(), floorId: unknownId() }, 'floorId', 'Floor is required'],
    ];
    for (const [body, field, message] of bad) {
      expectFieldError(await patch(shop.id, body), field, message);
      expect(await d.row('shops', shop.id)).toEqual(before);
    }
    expect((await patch(shop.id, { name: uniqueName(), productCount: 4 })).statusCode).toBe(400);
    expect(await d.row('shops', shop.id)).toEqual(before);
  });
});

describe('edit', () => {
  it('changes only the fields sent, trimmed, and answers the detail', async () => {
    const shop = await d.shop({ description: 'Old description', location: 'Unit 1' });
    const floor = await d.floor();
    const response = await patch(shop.id, { location: '  Unit 2 ', floorId: floor.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...shop, location: 'Unit 2', floorId: floor.id, floor: floor.name });
    expect(await d.row('shops', shop.id)).toMatchObject({
      name: shop.name,
      description: 'Old description',
      location: 'Unit 2',
      floor_id: floor.id,
      category_id: shop.categoryId,
    });
  });

  it('answers the shop unchanged for an empty edit', async () => {
    const shop = await d.shop();
    const before = await d.row('shops', shop.id);
    const response = await patch(shop.id, {});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(shop);
    expect(await d.row('shops', shop.id)).toEqual(before);
  });
});

describe('delete', () => {
  it("deletes the shop with its products and offers, and leaves other shops' rows alone", async () => {
    const doomed = await d.shop();
    const kept = await d.shop();
    const doomedOffers = [await d.offer({ shopId: doomed.id }), await d.offer({ shopId: doomed.id })];
    await d.product({ shopId: doomed.id, offerId: doomedOffers[0]?.id });
    await d.product({ shopId: doomed.id, offerId: doomedOffers[1]?.id });
    await d.product({ shopId: doomed.id });
    const keptOffer = await d.offer({ shopId: kept.id });
    const keptProduct = await d.product({ shopId: kept.id, offerId: keptOffer.id });
    const keptPlain = await d.product({ shopId: kept.id });

    expect((await get(doomed.id)).json()).toMatchObject({ productCount: 3, offerCount: 2 });
    const before = {
      shops: await d.count('shops'),
      products: await d.count('products'),
      offers: await d.count('offers'),
    };

    const response = await remove(doomed.id);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    expect(await d.row('shops', doomed.id)).toBeUndefined();
    expect(await d.countWhere('products', 'shop_id', doomed.id)).toBe(0);
    expect(await d.countWhere('offers', 'shop_id', doomed.id)).toBe(0);
    expect(await d.count('shops')).toBe(before.shops - 1);
    expect(await d.count('products')).toBe(before.products - 3);
    expect(await d.count('offers')).toBe(before.offers - 2);

    expect(await d.countWhere('products', 'shop_id', kept.id)).toBe(2);
    expect(await d.countWhere('offers', 'shop_id', kept.id)).toBe(1);
    expect(await d.row('products', keptProduct.id)).toMatchObject({
      shop_id: kept.id,
      offer_id: keptOffer.id,
    });
    expect(await d.row('products', keptPlain.id)).toMatchObject({ shop_id: kept.id, offer_id: null });
    expect((await get(kept.id)).json()).toMatchObject({ productCount: 2, offerCount: 1 });

    expect((await get(doomed.id)).statusCode).toBe(404);
    expect((await d.call(d.user, 'GET', `/api/products?shopId=${doomed.id}`)).json().total).toBe(0);
    expect((await d.call(d.user, 'GET', `/api/offers?shopId=${doomed.id}`)).json().total).toBe(0);
    expect((await remove(doomed.id)).statusCode).toBe(404);
  });

  it('frees its category and floor for deletion', async () => {
    const shop = await d.shop();
    expect((await d.call(d.admin, 'DELETE', `/api/categories/${shop.categoryId}`)).statusCode).toBe(409);
    expect((await remove(shop.id)).statusCode).toBe(204);
    expect((await d.call(d.admin, 'DELETE', `/api/categories/${shop.categoryId}`)).statusCode).toBe(204);
    expect((await d.call(d.admin, 'DELETE', `/api/floors/${shop.floorId}`)).statusCode).toBe(204);
  });
});

describe('list', () => {
  it('answers a page of shops with the defaults page 1 and pageSize 20, and the full total', async () => {
    for (let i = 0; i < 3; i++) await d.shop();
    const page = await list('');
    expect(page.page).toBe(1);
    expect(page.pageSize).toBe(20);
    expect(page.total).toBe(await d.count('shops'));
    expect(page.items.length).toBe(Math.min(20, page.total));
    expect(Object.keys(page.items[0] ?? {}).sort()).toEqual(
      [
        'id',
        'name',
        'slug',
        'description',
        'categoryId',
        'category',
        'floorId',
        'floor',
        'location',
        'contact',
        'openingHours',
        'hours',
        'externalCode',
        'logo',
        'cover',
        'pin',
        'createdAt',
      ].sort(),
    );
  });

  it('searches names case-insensitively for text they contain', async () => {
    const token = uniqueName('Zq');
    const category = await d.category();
    const floor = await d.floor();
    const make = (name: string) => d.shop({ name, categoryId: category.id, floorId: floor.id });
    await make(`${token} Alpha Store`);
    await make(`The ${token} Beta`);
    await make(`Unrelated ${uniqueName()}`);

    const upper = await list(`q=${encodeURIComponent(token.toUpperCase())}`);
    expect(upper.total).toBe(2);
    expect(names(upper).sort()).toEqual([`${token} Alpha Store`, `The ${token} Beta`].sort());
    const inner = await list(`q=${encodeURIComponent(`${token.toLowerCase()} alpha st`)}`);
    expect(names(inner)).toEqual([`${token} Alpha Store`]);
    expect(inner.total).toBe(1);
    // Blank search text is no filter.
    expect((await list(`q=${encodeURIComponent('   ')}&categoryId=${category.id}`)).total).toBe(3);
  });

  it('treats %, _ and \\ in the search text as plain characters', async () => {
    const token = uniqueName('Lit');
    const category = await d.category();
    const floor = await d.floor();
    for (const suffix of [
      '100% Cotton',
      '1000 Cotton',
      'snake_case',
      'snakeXcase',
      'back\\slash',
      'backslash',
    ]) {
      await d.shop({ name: `${token} ${suffix}`, categoryId: category.id, floorId: floor.id });
    }
    const search = async (text: string) => names(await list(`q=${encodeURIComponent(`${token} ${text}`)}`));
    expect(await search('100%')).toEqual([`${token} 100% Cotton`]);
    expect(await search('snake_case')).toEqual([`${token} snake_case`]);
    expect(await search('back\\slash')).toEqual([`${token} back\\slash`]);
    expect(names(await list(`q=${encodeURIComponent('%')}&categoryId=${category.id}`))).toEqual([
      `${token} 100% Cotton`,
    ]);
    expect(names(await list(`q=_&categoryId=${category.id}`))).toEqual([`${token} snake_case`]);
  });

  it('filters by categoryId and floorId, alone and together, with the right totals', async () => {
    const [fashion, food] = [await d.category(), await d.category()];
    const [ground, first] = [await d.floor(), await d.floor()];
    const a = await d.shop({ name: `${uniqueName()} Alpha`, categoryId: fashion.id, floorId: ground.id });
    const b = await d.shop({ name: `${uniqueName()} Bravo`, categoryId: fashion.id, floorId: first.id });
    const c = await d.shop({ name: `${uniqueName()} Charlie`, categoryId: food.id, floorId: ground.id });
    const ids = (page: ShopPageBody) => page.items.map((shop) => shop.id).sort();

    const byCategory = await list(`categoryId=${fashion.id}`);
    expect(ids(byCategory)).toEqual([a.id, b.id].sort());
    expect(byCategory.total).toBe(2);
    const byFloor = await list(`floorId=${ground.id}`);
    expect(ids(byFloor)).toEqual([a.id, c.id].sort());
    expect(byFloor.total).toBe(2);
    const both = await list(`categoryId=${fashion.id}&floorId=${ground.id}`);
    expect(ids(both)).toEqual([a.id]);
    expect(both.total).toBe(1);
    expect(both.items[0]).toMatchObject({ category: fashion.name, floor: ground.name });
    const none = await list(`categoryId=${food.id}&floorId=${first.id}`);
    expect(none).toEqual({ items: [], total: 0, page: 1, pageSize: 20 });
    const searchedAndFiltered = await list(`categoryId=${fashion.id}&q=${encodeURIComponent(' BRAVO ')}`);
    expect(ids(searchedAndFiltered)).toEqual([b.id]);
  });

  it('gives disjoint pages in a stable order by name that cover every shop', async () => {
    const category = await d.category();
    const floor = await d.floor();
    const token = uniqueName('Paged');
    // Two pairs share a name: the order must still be the same on every request.
    const wanted = ['05', '01', '03', '03', '02', '04', '04'].map((n) => `${token} ${n}`);
    const made: Shop[] = [];
    for (const name of wanted) made.push(await d.shop({ name, categoryId: category.id, floorId: floor.id }));

    const query = (page: number, size: number) => `categoryId=${category.id}&page=${page}&pageSize=${size}`;
    const all = await list(query(1, 100));
    expect(all.total).toBe(7);
    expect(names(all)).toEqual([...wanted].sort());
    expect((await list(query(1, 100))).items.map((s) => s.id)).toEqual(all.items.map((s) => s.id));

    const pages = [await list(query(1, 3)), await list(query(2, 3)), await list(query(3, 3))];
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    for (const [index, page] of pages.entries()) {
      expect(page).toMatchObject({ total: 7, page: index + 1, pageSize: 3 });
    }
    const paged = pages.flatMap((p) => p.items.map((s) => s.id));
    expect(new Set(paged).size).toBe(7);
    expect(paged).toEqual(all.items.map((s) => s.id));
    expect(paged.sort()).toEqual(made.map((s) => s.id).sort());
    expect(await list(query(4, 3))).toEqual({ items: [], total: 7, page: 4, pageSize: 3 });
  });

  it.each([
    'pageSize=101',
    'pageSize=1000',
    'pageSize=0',
    'page=0',
    'page=-1',
    'page=abc',
    'pageSize=2.5',
    'categoryId=fashion',
    'floorId=1',
    'sort=name',
    `q=${'q'.repeat(201)}`,
  ])('refuses ?%s with 400', async (query) => {
    const response = await d.call(d.user, 'GET', `/api/shops?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION');
  });

  it('accepts pageSize 100 and pageSize 1', async () => {
    expect((await list('pageSize=100')).pageSize).toBe(100);
    const one = await list('pageSize=1&page=2');
    expect(one).toMatchObject({ page: 2, pageSize: 1 });
    expect(one.items).toHaveLength(1);
  });
});

describe('external code (a stable key for imports)', () => {
  it('stores a trimmed code, refuses a second shop with it, and a blank code clears it', async () => {
    const code = uniqueName('T-');
    const created = await post({ ...(await validBody()), externalCode: ` ${code} ` });
    expect(created.statusCode, created.body).toBe(201);
    expect((created.json() as ShopDetail).externalCode).toBe(code);
    const twin = await post({ ...(await validBody()), externalCode: code });
    expectError(twin, 409, 'DUPLICATE', 'Another shop already has this code', 'externalCode');
    // Shops without a code do not collide with each other.
    expect((await post(await validBody())).statusCode).toBe(201);
    expect((await post(await validBody())).statusCode).toBe(201);
    const id = (created.json() as ShopDetail).id;
    const cleared = await patch(id, { externalCode: '  ' });
    expect((cleared.json() as ShopDetail).externalCode).toBeNull();
    expect((await post({ ...(await validBody()), externalCode: 'x'.repeat(65) })).json()).toMatchObject({
      error: { fields: { externalCode: 'Code must be at most 64 characters' } },
    });
  });
});
