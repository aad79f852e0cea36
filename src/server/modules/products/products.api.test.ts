// Products (/api/products): exact prices, the offer price, the rule that a product's offer is one of its
// own shop's, validation, and the list's search, filters and pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../shared/product';
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

const OFFER_OF_ANOTHER_SHOP = "This offer is not one of the product's shop";
const post = (payload: unknown) => d.call(d.admin, 'POST', '/api/products', payload);
const patch = (id: string, payload: unknown) => d.call(d.admin, 'PATCH', `/api/products/${id}`, payload);
const remove = (id: string) => d.call(d.admin, 'DELETE', `/api/products/${id}`);
const get = async (id: string) => (await d.call(d.user, 'GET', `/api/products/${id}`)).json() as Product;

interface ProductPageBody {
  items: Product[];
  total: number;
  page: number;
  pageSize: number;
}
async function list(query: string): Promise<ProductPageBody> {
  const response = await d.call(d.user, 'GET', `/api/products?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ProductPageBody;
}
const ids = (page: ProductPageBody) => page.items.map((product) => product.id).sort();
const storedPrice = async (id: string) =>
  (
    await t.database.pool.query<{ price: string }>(
      'select price::text as price from products where id = $1',
      [id],
    )
  ).rows[0]?.price;

describe('create and read', () => {
  it('creates a product and answers it with its shop name, an exact price and no offer', async () => {
    const shop = await d.shop();
    const name = uniqueName('Sneaker');
    const response = await post({
      name: `  ${name} `,
      price: 1299,
      shopId: shop.id,
      description: ' Running shoe ',
      category: ' Footwear ',
    });
    expect(response.statusCode).toBe(201);
    const product = response.json() as Product;
    expect(product).toEqual({
      id: expect.any(String),
      name,
      description: 'Running shoe',
      price: '1299.00',
      category: 'Footwear',
      shopId: shop.id,
      shopName: shop.name,
      offerId: null,
      offer: null,
      offerPrice: null,
      externalCode: null,
      image: null,
      shopLogo: null,
      createdAt: expect.any(String),
    });
    expect(await get(product.id)).toEqual(product);
    expect(await d.row('products', product.id)).toMatchObject({
      name,
      shop_id: shop.id,
      offer_id: null,
      category: 'Footwear',
    });
  });

  it('keeps emoji, Arabic and Hindi exactly as sent', async () => {
    const text = { name: `عطر 🌹 ${uniqueName()}`, description: 'हाथ से बना', category: 'इत्र' };
    const product = await d.product({ ...text, price: 5 });
    expect(product).toMatchObject(text);
    expect(await get(product.id)).toMatchObject(text);
  });

  it('answers 404 "Product not found" for a product that does not exist', async () => {
    const id = unknownId();
    expectError(await d.call(d.user, 'GET', `/api/products/${id}`), 404, 'NOT_FOUND', 'Product not found');
    expectError(await patch(id, { name: uniqueName() }), 404, 'NOT_FOUND', 'Product not found');
    expectError(await remove(id), 404, 'NOT_FOUND', 'Product not found');
  });

  it('deletes a product: 204, the row is gone, its shop and offer stay', async () => {
    const offer = await d.offer();
    const product = await d.product({ shopId: offer.shopId, offerId: offer.id });
    const response = await remove(product.id);
    expect(response.statusCode).toBe(204);
    expect(await d.row('products', product.id)).toBeUndefined();
    expect(await d.row('offers', offer.id)).toBeDefined();
    expect(await d.row('shops', offer.shopId)).toBeDefined();
    expect((await d.call(d.user, 'GET', `/api/products/${product.id}`)).statusCode).toBe(404);
  });
});

describe('exact prices', () => {
  it.each([
    [0.1, '0.10'],
    [0.2, '0.20'],
    [19.99, '19.99'],
    [99_999_999.99, '99999999.99'],
    [0, '0.00'],
    [12.5, '12.50'],
    [1.01, '1.01'],
  ])('stores %d and answers it as "%s"', async (price, exact) => {
    const product = await d.product({ price });
    expect(product.price).toBe(exact);
    expect(await storedPrice(product.id)).toBe(exact);
    expect((await get(product.id)).price).toBe(exact);
  });

  it('changes only the price on a price edit, exactly', async () => {
    const product = await d.product({ price: 3, description: 'Keep me', category: 'Keep' });
    const response = await patch(product.id, { price: 0.3 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...product, price: '0.30' });
    expect(await storedPrice(product.id)).toBe('0.30');
  });

  it.each([
    ['100.00', 100, 15, '85.00'],
    ['19.99', 19.99, 33, '13.39'],
    ['1299.00', 1299, 15, '1104.15'],
    ['0.05', 0.05, 50, '0.03'],
    ['9.99', 9.99, 50, '5.00'],
    ['0.99', 0.99, 50, '0.50'],
    ['10.00', 10, 100, '0.00'],
    ['99999999.99', 99_999_999.99, 1, '98999999.99'],
  ])(
    'gives an offer price for %s at %d%% of %s, rounded half up',
    async (exact, price, discount, offerPrice) => {
      const offer = await d.offer({ discount });
      const product = await d.product({ price, shopId: offer.shopId, offerId: offer.id });
      expect(product.price).toBe(exact);
      expect(product.offerId).toBe(offer.id);
      expect(product.offer).toEqual({
        id: offer.id,
        title: offer.title,
        discount,
        endDate: offer.endDate,
        active: true,
      });
      expect(product.offerPrice).toBe(offerPrice);
      expect((await get(product.id)).offerPrice).toBe(offerPrice);
    },
  );
});

describe('validation', () => {
  let shopId = '';
  beforeAll(async () => {
    shopId = (await d.shop()).id;
  });
  const base = () => ({ name: uniqueName('Valid Product'), price: 10, shopId });
  function without(key: 'name' | 'price' | 'shopId') {
    const body: Record<string, unknown> = base();
    delete body[key];
    return body;
  }

  type Case = [string, () => Record<string, unknown>, string, string];
  const cases: Case[] = [
    ['name missing', () => without('name'), 'name', 'Name is required'],
    ['name empty', () => ({ ...base(), name: '' }), 'name', 'Name is required'],
    ['name only spaces', () => ({ ...base(), name: '   ' }), 'name', 'Name is required'],
    [
      'name of 10,000 characters',
      () => ({ ...base(), name: 'p'.repeat(10_000) }),
      'name',
      'Name must be at most 120 characters',
    ],
    ['price missing', () => without('price'), 'price', 'Valid price is required'],
    ['price as the string "12"', () => ({ ...base(), price: '12' }), 'price', 'Valid price is required'],
    ['price empty string', () => ({ ...base(), price: '' }), 'price', 'Valid price is required'],
    ['price null', () => ({ ...base(), price: null }), 'price', 'Valid price is required'],
    ['price -1', () => ({ ...base(), price: -1 }), 'price', 'Valid price is required'],
    ['price -0.01', () => ({ ...base(), price: -0.01 }), 'price', 'Valid price is required'],
    [
      'price 12.345',
      () => ({ ...base(), price: 12.345 }),
      'price',
      'Price can have at most 2 decimal places',
    ],
    ['price 0.001', () => ({ ...base(), price: 0.001 }), 'price', 'Price can have at most 2 decimal places'],
    ['price 100000000', () => ({ ...base(), price: 100_000_000 }), 'price', 'Price is too large'],
    ['shopId missing', () => without('shopId'), 'shopId', 'Shop is required'],
    ['shopId empty', () => ({ ...base(), shopId: '' }), 'shopId', 'Shop is required'],
    ['shopId not a uuid', () => ({ ...base(), shopId: 'shop-1' }), 'shopId', 'Shop is required'],
    ['shopId unknown', () => ({ ...base(), shopId: unknownId() }), 'shopId', 'Shop is required'],
    [
      'category of 61 characters',
      () => ({ ...base(), category: 'c'.repeat(61) }),
      'category',
      'Category must be at most 60 characters',
    ],
    ['offerId not a uuid', () => ({ ...base(), offerId: 'half-off' }), 'offerId', 'Unknown offer'],
  ];

  it.each(cases)(
    'refuses %s with the form message, writing nothing',
    async (_label, body, field, message) => {
      const before = await d.count('products');
      expectFieldError(await post(body()), field, message);
      expect(await d.count('products')).toBe(before);
    },
  );

  it('refuses unknown fields (a price as cents, a shop name, an offer price), writing nothing', async () => {
    const before = await d.count('products');
    for (const extra of [
      { priceCents: 1000 },
      { shopName: 'X' },
      { offerPrice: '1.00' },
      { id: unknownId() },
    ]) {
      const response = await post({ ...base(), ...extra });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION');
    }
    expect(await d.count('products')).toBe(before);
  });

  it('refuses a bad edit, leaving the row as it was', async () => {
    const product = await d.product({ shopId });
    const before = await d.row('products', product.id);
    const bad: [Record<string, unknown>, string, string][] = [
      [{ name: ' ' }, 'name', 'Name is required'],
      [{ price: '12' }, 'price', 'Valid price is required'],
      [{ price: null }, 'price', 'Valid price is required'],
      [{ price: -1 }, 'price', 'Valid price is required'],
      [{ price: 12.345 }, 'price', 'Price can have at most 2 decimal places'],
      [{ shopId: unknownId() }, 'shopId', 'Shop is required'],
      [{ shopId: '' }, 'shopId', 'Shop is required'],
    ];
    for (const [body, field, message] of bad) {
      expectFieldError(await patch(product.id, body), field, message);
      expect(await d.row('products', product.id)).toEqual(before);
    }
  });
});

describe("a product's offer is one of its shop's", () => {
  it("refuses creating a product with another shop's offer (400 on offerId), writing nothing", async () => {
    const shop = await d.shop();
    const foreign = await d.offer();
    const before = await d.count('products');
    expectFieldError(
      await post({ name: uniqueName(), price: 1, shopId: shop.id, offerId: foreign.id }),
      'offerId',
      OFFER_OF_ANOTHER_SHOP,
    );
    expectFieldError(
      await post({ name: uniqueName(), price: 1, shopId: shop.id, offerId: unknownId() }),
      'offerId',
      OFFER_OF_ANOTHER_SHOP,
    );
    expect(await d.count('products')).toBe(before);
  });

  it("refuses giving a product another shop's offer, leaving it as it was", async () => {
    const own = await d.offer();
    const product = await d.product({ shopId: own.shopId, offerId: own.id });
    const foreign = await d.offer();
    const before = await d.row('products', product.id);
    expectFieldError(await patch(product.id, { offerId: foreign.id }), 'offerId', OFFER_OF_ANOTHER_SHOP);
    expect(await d.row('products', product.id)).toEqual(before);
    expect((await get(product.id)).offerId).toBe(own.id);
  });

  it('refuses moving a product to another shop while it keeps an offer of the old one', async () => {
    const offer = await d.offer();
    const product = await d.product({ shopId: offer.shopId, offerId: offer.id });
    const otherShop = await d.shop();
    const before = await d.row('products', product.id);
    expectFieldError(await patch(product.id, { shopId: otherShop.id }), 'offerId', OFFER_OF_ANOTHER_SHOP);
    expect(await d.row('products', product.id)).toEqual(before);
  });

  it('moves a product when its offer is dropped or replaced by one of the new shop in the same edit', async () => {
    const offer = await d.offer();
    const product = await d.product({ shopId: offer.shopId, offerId: offer.id });
    const target = await d.shop();
    const dropped = await patch(product.id, { shopId: target.id, offerId: null });
    expect(dropped.statusCode).toBe(200);
    expect(dropped.json()).toMatchObject({
      shopId: target.id,
      shopName: target.name,
      offerId: null,
      offer: null,
    });

    const third = await d.offer();
    const replaced = await patch(product.id, { shopId: third.shopId, offerId: third.id });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({
      shopId: third.shopId,
      offerId: third.id,
      offer: { id: third.id },
    });
    expect(await d.row('products', product.id)).toMatchObject({ shop_id: third.shopId, offer_id: third.id });
  });

  it('takes the offer off a product with offerId null', async () => {
    const offer = await d.offer({ discount: 20 });
    const product = await d.product({ price: 50, shopId: offer.shopId, offerId: offer.id });
    expect(product.offerPrice).toBe('40.00');
    const response = await patch(product.id, { offerId: null });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ offerId: null, offer: null, offerPrice: null, price: '50.00' });
    expect((await d.row('products', product.id))?.offer_id).toBeNull();
  });
});

describe('list', () => {
  it('searches names case-insensitively for text they contain, with % and _ taken literally', async () => {
    const shop = await d.shop();
    const token = uniqueName('Pq');
    const make = (name: string) => d.product({ name, shopId: shop.id });
    const a = await make(`${token} 50% Off Tee`);
    await make(`${token} 500 Off Tee`);
    const c = await make(`${token} dress_shirt`);
    await make(`${token} dressXshirt`);
    const e = await make(`Big ${token} Mug`);
    await make(uniqueName('Other'));

    const q = (text: string) => list(`q=${encodeURIComponent(text)}`);
    const all = await q(token.toUpperCase());
    expect(all.total).toBe(5);
    expect(ids(await q(`${token.toLowerCase()} 50%`))).toEqual([a.id]);
    expect(ids(await q(`${token} dress_shirt`))).toEqual([c.id]);
    expect(ids(await q(`g ${token} m`))).toEqual([e.id]);
    expect(ids(await list(`shopId=${shop.id}&q=%25`))).toEqual([a.id]);
    expect(ids(await list(`shopId=${shop.id}&q=_`))).toEqual([c.id]);
  });

  it('filters by shopId, by category (whole name, any case, % literal) and by onOffer, with totals', async () => {
    const shop = await d.shop();
    const other = await d.shop();
    const offer = await d.offer({ shopId: shop.id });
    // An offer that ended still counts as "on offer": the product has an offerId (spec §4).
    const ended = await d.offer({ shopId: shop.id, startDate: d.day(-10), endDate: d.day(-1) });
    const shoes = await d.product({ shopId: shop.id, category: 'Shoes', offerId: offer.id });
    const shoes2 = await d.product({ shopId: shop.id, category: 'shoes', offerId: ended.id });
    const shoeCare = await d.product({ shopId: shop.id, category: 'Shoe care' });
    const percent = await d.product({ shopId: shop.id, category: '100%' });
    const elsewhere = await d.product({ shopId: other.id, category: 'Shoes', offerId: null });

    const byShop = await list(`shopId=${shop.id}`);
    expect(ids(byShop)).toEqual([shoes.id, shoes2.id, shoeCare.id, percent.id].sort());
    expect(byShop.total).toBe(4);

    const byCategory = await list(`shopId=${shop.id}&category=SHOES`);
    expect(ids(byCategory)).toEqual([shoes.id, shoes2.id].sort());
    expect(byCategory.total).toBe(2);
    expect(ids(await list(`shopId=${shop.id}&category=Shoe`))).toEqual([]);
    expect(ids(await list(`shopId=${shop.id}&category=shoe%20care`))).toEqual([shoeCare.id]);
    expect(ids(await list(`shopId=${shop.id}&category=100%25`))).toEqual([percent.id]);
    expect(ids(await list(`shopId=${shop.id}&category=1__%25`))).toEqual([]);
    expect(ids(await list(`shopId=${shop.id}&category=%25`))).toEqual([]);

    const onOffer = await list(`shopId=${shop.id}&onOffer=true`);
    expect(ids(onOffer)).toEqual([shoes.id, shoes2.id].sort());
    expect(onOffer.total).toBe(2);
    const notOnOffer = await list(`shopId=${shop.id}&onOffer=false`);
    expect(ids(notOnOffer)).toEqual([shoeCare.id, percent.id].sort());
    expect(notOnOffer.total).toBe(2);

    const everywhere = await list(`category=shoes&pageSize=100&q=${encodeURIComponent('Product')}`);
    expect(everywhere.items.map((p) => p.id)).toEqual(
      expect.arrayContaining([shoes.id, shoes2.id, elsewhere.id]),
    );
    expect(everywhere.items.every((p) => p.category.toLowerCase() === 'shoes')).toBe(true);
  });

  it('gives disjoint pages in a stable order by name that cover every product, with the total', async () => {
    const shop = await d.shop();
    const token = uniqueName('Paged');
    const wanted = ['b', 'a', 'c', 'c', 'a', 'd'].map((n) => `${token} ${n}`);
    const made: Product[] = [];
    for (const name of wanted) made.push(await d.product({ name, shopId: shop.id }));

    const query = (page: number, size: number) => `shopId=${shop.id}&page=${page}&pageSize=${size}`;
    const all = await list(query(1, 100));
    expect(all.total).toBe(6);
    expect(all.items.map((p) => p.name)).toEqual([...wanted].sort());
    const pages = [await list(query(1, 4)), await list(query(2, 4))];
    expect(pages.map((p) => p.items.length)).toEqual([4, 2]);
    for (const page of pages) expect(page.total).toBe(6);
    const paged = pages.flatMap((p) => p.items.map((item) => item.id));
    expect(paged).toEqual(all.items.map((p) => p.id));
    expect(new Set(paged).size).toBe(6);
    expect([...paged].sort()).toEqual(made.map((p) => p.id).sort());
    expect((await list(query(1, 100))).items.map((p) => p.id)).toEqual(paged);
  });

  it('counts everything in total without a filter', async () => {
    await d.product();
    const page = await list('pageSize=1');
    expect(page.total).toBe(await d.count('products'));
    expect(page.items).toHaveLength(1);
  });

  it.each([
    'pageSize=101',
    'pageSize=0',
    'page=0',
    'onOffer=yes',
    'shopId=abc',
    `category=${'c'.repeat(201)}`,
    'x=1',
  ])('refuses ?%s with 400', async (query) => {
    const response = await d.call(d.user, 'GET', `/api/products?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION');
  });
});

describe('counting a name search', () => {
  it('counts up to 1000 matches, then says there are more', async () => {
    const shop = await d.shop();
    const word = `Plentiful${Date.now().toString(36)}`;
    await d.t.database.pool.query(
      `insert into products (shop_id, name, price) select $1, $2 || ' ' || g, 1 from generate_series(1, 1001) g`,
      [shop.id, word],
    );
    await d.t.settle(); // written straight into the database: the cache hears of it by notification
    const capped = await d.call(d.user, 'GET', `/api/products?q=${word}`);
    expect(capped.statusCode).toBe(200);
    expect(capped.json()).toMatchObject({ total: 1000, totalCapped: true });
    expect(capped.json().items).toHaveLength(20);

    // Pages in name order whichever way the search was answered (more than 1000 matches: walked in name
    // order; 1000 or fewer: sorted among the matches).
    const inNameOrder = async () =>
      (
        await d.t.database.pool.query<{ id: string }>(
          `select id from products where name like $1 || ' %' order by lower(name), name, id`,
          [word],
        )
      ).rows.map((row) => row.id);
    const pageIds = async (page: number) =>
      (await d.call(d.user, 'GET', `/api/products?q=${word.toUpperCase()}&page=${page}`))
        .json()
        .items.map((item: { id: string }) => item.id);
    let expected = await inNameOrder();
    expect(await pageIds(1)).toEqual(expected.slice(0, 20));
    expect(await pageIds(7)).toEqual(expected.slice(120, 140));

    await d.t.database.pool.query('delete from products where name = $1', [`${word} 1001`]);
    await d.t.settle();
    const exact = await d.call(d.user, 'GET', `/api/products?q=${word}`);
    expect(exact.json().total).toBe(1000);
    expect(exact.json().totalCapped).toBeUndefined();
    expected = await inNameOrder();
    expect(await pageIds(1)).toEqual(expected.slice(0, 20));
    expect(await pageIds(7)).toEqual(expected.slice(120, 140));
    expect(await pageIds(50)).toEqual(expected.slice(980, 1000));
    expect(await pageIds(51)).toEqual([]);
    // A list without a search is counted exactly, however long.
    const all = await d.call(d.user, 'GET', `/api/products?shopId=${shop.id}`);
    expect(all.json()).toMatchObject({ total: 1000 });
    expect(all.json().totalCapped).toBeUndefined();
  });
});

describe('external code (a stable key for imports)', () => {
  it('is unique within its shop only', async () => {
    const [one, two] = [await d.shop(), await d.shop()];
    const sku = uniqueName('SKU-');
    const first = await post({ name: uniqueName('Sock'), price: 3, shopId: one.id, externalCode: sku });
    expect(first.statusCode, first.body).toBe(201);
    expect((first.json() as Product).externalCode).toBe(sku);
    const again = await post({ name: uniqueName('Sock'), price: 3, shopId: one.id, externalCode: sku });
    expectError(
      again,
      409,
      'DUPLICATE',
      'Another product of this shop already has this code',
      'externalCode',
    );
    const elsewhere = await post({ name: uniqueName('Sock'), price: 3, shopId: two.id, externalCode: sku });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
  });
});
