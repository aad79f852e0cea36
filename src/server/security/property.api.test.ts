// Property-based checks (issue #6), with fast-check: whatever JSON reaches a write route, the answer is
// never a 5xx, and a 4xx is the one error shape and writes nothing; whatever the query string of a list
// route, never a 5xx; every valid price and every clean text round-trips exactly.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Offer } from '../../shared/offer';
import type { Place } from '../../shared/place';
import type { Product } from '../../shared/product';
import type { ShopDetail } from '../../shared/shop';
import { type Directory, openDirectory, type Table, uniqueName } from '../test/catalog-fixtures';
import { createTestApp, registerAs, type SignedIn, type TestApp } from '../test/harness';

/** Runs per property: enough to find a stray 5xx, few enough for the file to run in well under 60 s. */
const RUNS = 60;

let t: TestApp;
let d: Directory;
let fx: {
  category: Place;
  floor: Place;
  shop: ShopDetail;
  otherShop: ShopDetail;
  offer: Offer;
  offerOfAnotherShop: Offer;
  /** Signs in through the login property: its lockout must not touch anyone else. */
  loginAs: SignedIn;
  targets: { category: Place; floor: Place; shop: ShopDetail; product: Product; offer: Offer };
};

beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
  const shop = await d.shop();
  const offer = await d.offer({ shopId: shop.id });
  const otherShop = await d.shop();
  fx = {
    category: await d.category(),
    floor: await d.floor(),
    shop,
    otherShop,
    offer,
    offerOfAnotherShop: await d.offer({ shopId: otherShop.id }),
    loginAs: await registerAs(t.app, 'user', { password: 'secret-password' }),
    targets: {
      category: await d.category(),
      floor: await d.floor(),
      shop: await d.shop(),
      product: await d.product({ shopId: shop.id, offerId: offer.id }),
      offer: await d.offer({ shopId: shop.id }),
    },
  };
});
afterAll(async () => {
  await t?.close();
});

/** The one body of every failed request (src/shared/errors.ts), and nothing else. */
const ErrorBody = z.strictObject({
  error: z.strictObject({
    code: z.string().min(1),
    message: z.string().min(1),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

function expectErrorShape(body: string): void {
  expect(ErrorBody.safeParse(JSON.parse(body)).success, body).toBe(true);
}

const TABLES = ['categories', 'floors', 'shops', 'products', 'offers', 'users', 'sessions', 'admin_invites'];

/** How many rows every table holds. */
async function rowCounts(): Promise<Record<string, number>> {
  const columns = TABLES.map((table) => `(select count(*)::int from ${table}) as ${table}`).join(', ');
  const result = await t.database.pool.query<Record<string, number>>(`select ${columns}`);
  return result.rows[0] ?? {};
}

/** JSON text of any value: what JSON cannot hold (undefined at the top, a bigint) becomes null or text. */
function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
}

// ---------------------------------------------------------------------------------------------------
// Random bodies to every write route

interface WriteRoute {
  name: string;
  method: 'POST' | 'PATCH' | 'PUT';
  url: () => string;
  as: () => SignedIn | null;
  /** A body the route accepts, which the mutations start from. */
  valid: () => Record<string, unknown>;
  /** The row a PATCH aims at, which a refused request must leave as it was. */
  target?: () => { table: Table; id: string };
  /** A one-row table the route sets (the mall's profile), which a refused request must leave as it was. */
  row?: () => Promise<unknown>;
}

const placeBody = (prefix: string) => () => ({ name: uniqueName(prefix) });
/** A category also has its store type (docs/decisions/034). */
const categoryBody = () => ({ name: uniqueName('C'), schemaType: 'BookStore' });
const mallProfileBody = () => ({
  name: uniqueName('Mall'),
  streetAddress: '1 Mall Road',
  locality: 'Bengaluru',
  region: 'Karnataka',
  postalCode: '560001',
  country: 'IN',
  phone: '+91 80 1234 5678',
  latitude: 12.97,
  longitude: 77.59,
  currency: 'INR',
  logo: null,
  publicUrl: 'https://mall.example.com',
});
const shopBody = () => ({
  name: uniqueName('Shop'),
  description: 'Shoes and bags',
  categoryId: fx.category.id,
  floorId: fx.floor.id,
  location: 'Unit 12',
  contact: '+91 80 1234 5678',
  openingHours: '10:00–22:00',
});
const productBody = () => ({
  name: uniqueName('Product'),
  description: 'Hand stitched',
  price: 1299.5,
  category: 'Shoes',
  shopId: fx.shop.id,
  offerId: fx.offer.id,
});
const offerBody = () => ({
  title: uniqueName('Offer'),
  description: 'On everything',
  discount: 15,
  startDate: d.today(),
  endDate: d.day(30),
  shopId: fx.shop.id,
});

const admin = () => d.admin;
const WRITE_ROUTES: WriteRoute[] = [
  {
    name: 'POST /api/categories',
    method: 'POST',
    url: () => '/api/categories',
    as: admin,
    valid: categoryBody,
  },
  { name: 'POST /api/floors', method: 'POST', url: () => '/api/floors', as: admin, valid: placeBody('F') },
  { name: 'POST /api/shops', method: 'POST', url: () => '/api/shops', as: admin, valid: shopBody },
  { name: 'POST /api/products', method: 'POST', url: () => '/api/products', as: admin, valid: productBody },
  { name: 'POST /api/offers', method: 'POST', url: () => '/api/offers', as: admin, valid: offerBody },
  {
    name: 'PATCH /api/categories/:id',
    method: 'PATCH',
    url: () => `/api/categories/${fx.targets.category.id}`,
    as: admin,
    valid: categoryBody,
    target: () => ({ table: 'categories', id: fx.targets.category.id }),
  },
  {
    name: 'PATCH /api/floors/:id',
    method: 'PATCH',
    url: () => `/api/floors/${fx.targets.floor.id}`,
    as: admin,
    valid: placeBody('F'),
    target: () => ({ table: 'floors', id: fx.targets.floor.id }),
  },
  {
    name: 'PATCH /api/shops/:id',
    method: 'PATCH',
    url: () => `/api/shops/${fx.targets.shop.id}`,
    as: admin,
    valid: shopBody,
    target: () => ({ table: 'shops', id: fx.targets.shop.id }),
  },
  {
    name: 'PATCH /api/products/:id',
    method: 'PATCH',
    url: () => `/api/products/${fx.targets.product.id}`,
    as: admin,
    valid: productBody,
    target: () => ({ table: 'products', id: fx.targets.product.id }),
  },
  {
    name: 'PATCH /api/offers/:id',
    method: 'PATCH',
    url: () => `/api/offers/${fx.targets.offer.id}`,
    as: admin,
    valid: offerBody,
    target: () => ({ table: 'offers', id: fx.targets.offer.id }),
  },
  {
    name: 'PUT /api/mall/profile',
    method: 'PUT',
    url: () => '/api/mall/profile',
    as: admin,
    valid: mallProfileBody,
    row: async () => (await t.database.pool.query('select * from mall_profile')).rows,
  },
  {
    name: 'POST /api/auth/register',
    method: 'POST',
    url: () => '/api/auth/register',
    as: () => null,
    valid: () => ({ email: 'property.register@example.com', password: 'secret-password', role: 'user' }),
  },
  {
    name: 'POST /api/auth/login',
    method: 'POST',
    url: () => '/api/auth/login',
    as: () => null,
    valid: () => ({ email: fx.loginAs.user.email, password: 'secret-password' }),
  },
];

/** Field values that get past a type check far more often than fc.jsonValue() alone. */
function fieldValue(): fc.Arbitrary<unknown> {
  const known = [
    fx.category.id,
    fx.floor.id,
    fx.shop.id,
    fx.otherShop.id,
    fx.offer.id,
    fx.offerOfAnotherShop.id,
    randomUUID(),
    d.today(),
    d.day(-1),
    'user',
    'admin',
    'Store',
    'IN',
    'INR',
    'https://mall.example.com',
    '',
    '   ',
    'x'.repeat(121),
  ];
  return fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(...known),
    fc.string({ unit: 'grapheme', maxLength: 130 }),
    fc.string({ unit: 'binary-ascii' }),
    fc.integer({ min: -200, max: 200 }),
    fc.double(),
    fc
      .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10)),
  );
}

type Body = Record<string, unknown>;

/** One change to a valid body: drop a key, give a key any value, or add a key no form has. */
function mutation(keys: string[], value: fc.Arbitrary<unknown>): fc.Arbitrary<(body: Body) => Body> {
  return fc.oneof(
    fc.constantFrom(...keys).map((key) => (body: Body) => {
      const { [key]: _dropped, ...rest } = body;
      return rest;
    }),
    fc.tuple(fc.constantFrom(...keys), value).map(([key, v]) => (body: Body) => ({ ...body, [key]: v })),
    fc
      .tuple(fc.string(), value)
      .filter(([key]) => !keys.includes(key))
      .map(([key, v]) => (body: Body) => ({ ...body, [key]: v })),
  );
}

const BODY_KINDS = [
  'any JSON value',
  'any object',
  'anything, made JSON-safe',
  "the form's keys with any values",
  'a valid body with 1–3 mutations',
] as const;

function bodies(route: WriteRoute, kind: (typeof BODY_KINDS)[number]): fc.Arbitrary<string> {
  const valid = route.valid();
  const keys = Object.keys(valid);
  switch (kind) {
    case 'any JSON value':
      return fc.jsonValue().map(jsonText);
    case 'any object':
      return fc.object().map(jsonText);
    case 'anything, made JSON-safe':
      return fc.anything().map(jsonText);
    case "the form's keys with any values":
      return fc.dictionary(fc.constantFrom(...keys), fieldValue()).map(jsonText);
    case 'a valid body with 1–3 mutations':
      return fc
        .array(mutation(keys, fieldValue()), { minLength: 1, maxLength: 3 })
        .map((changes) => jsonText(changes.reduce((body, change) => change(body), valid)));
  }
}

/** What a refused request must leave as it was: every table's row count, and the PATCH target row. */
async function snapshot(route: WriteRoute) {
  const target = route.target?.();
  return {
    counts: await rowCounts(),
    row: target ? await d.row(target.table, target.id) : ((await route.row?.()) ?? null),
  };
}

describe.each(WRITE_ROUTES.map((route) => [route.name, route] as const))('%s', (_name, route) => {
  it.each(BODY_KINDS)('%s: never a 5xx; a 4xx is the error shape and writes nothing', async (kind) => {
    await fc.assert(
      fc.asyncProperty(bodies(route, kind), async (body) => {
        const before = await snapshot(route);
        const response = await t.app.inject({
          method: route.method,
          url: route.url(),
          payload: body,
          headers: { 'content-type': 'application/json', ...(route.as()?.headers ?? {}) },
        });
        expect(response.statusCode, `${body} → ${response.body}`).toBeLessThan(500);
        if (response.statusCode >= 400) {
          expectErrorShape(response.body);
          expect(await snapshot(route), body).toEqual(before);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// Random query strings to every list route

const LIST_ROUTES = [
  '/api/categories',
  '/api/floors',
  '/api/shops',
  '/api/products',
  '/api/offers',
  '/api/admin/invites',
];
const QUERY_KEYS = [
  'page',
  'pageSize',
  'q',
  'categoryId',
  'floorId',
  'shopId',
  'category',
  'onOffer',
  'active',
];

function queryString(): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.constantFrom(
      '',
      'true',
      'false',
      '0',
      '-1',
      '1.5',
      '1e309',
      'NaN',
      '100',
      '101',
      '100001',
      fx.shop.id,
    ),
    fc.integer().map(String),
    fc.double().map(String),
    fc.uuid(),
    fc.string({ unit: 'grapheme', maxLength: 220 }),
    fc.string({ unit: 'binary-ascii' }),
  );
  const key = fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string());
  const pair = fc.tuple(key, value).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  // Sent as is: broken percent-escapes (%E0%A4, %zz), stray separators, repeated keys.
  const rawPart = fc.string({ unit: fc.constantFrom(...'%&=+[].,;apqeg0189FfCE'), maxLength: 12 });
  return fc.array(fc.oneof(pair, rawPart), { maxLength: 8 }).map((parts) => parts.join('&'));
}

describe('random query strings', () => {
  it.each(LIST_ROUTES)('GET %s?… is never a 5xx; a 4xx is the error shape', async (route) => {
    await fc.assert(
      fc.asyncProperty(queryString(), async (query) => {
        const response = await d.call(d.admin, 'GET', `${route}?${query}`);
        expect(response.statusCode, `${query} → ${response.body}`).toBeLessThan(500);
        if (response.statusCode >= 400) expectErrorShape(response.body);
      }),
      { numRuns: 100 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// Round trips

/** 1234 cents → "12.34", from the integer, not from the float. */
const centsText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

describe('round trips', () => {
  it('every valid price (0.00–99,999,999.99) comes back as its exact 2-decimal string', async () => {
    const cents = fc.integer({ min: 0, max: 9_999_999_999 });
    await fc.assert(
      fc.asyncProperty(cents, cents, async (created, patched) => {
        const post = await d.call(d.admin, 'POST', '/api/products', {
          name: uniqueName('Priced'),
          price: created / 100,
          shopId: fx.shop.id,
        });
        expect(post.statusCode, post.body).toBe(201);
        const product = post.json() as Product;
        expect(product.price).toBe(centsText(created));
        const read = await d.call(d.user, 'GET', `/api/products/${product.id}`);
        expect((read.json() as Product).price).toBe(centsText(created));
        const patch = await d.call(d.admin, 'PATCH', `/api/products/${product.id}`, { price: patched / 100 });
        expect(patch.statusCode, patch.body).toBe(200);
        expect((patch.json() as Product).price).toBe(centsText(patched));
      }),
      { numRuns: 100 },
    );
  });

  it('any clean one-line name comes back trimmed and NFC-normalised, nothing else changed', async () => {
    // What the schemas refuse: C0 controls but tab, newline and carriage return, and DEL.
    const isControl = (code: number) => (code < 0x20 && ![0x09, 0x0a, 0x0d].includes(code)) || code === 0x7f;
    const text = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
      .filter((s) => ![...s].some((ch) => isControl(ch.charCodeAt(0))))
      .filter((s) => s.trim().length > 0 && s.trim().normalize('NFC').length <= 120)
      // a name is one line: a break inside is refused (bad-input.api.test.ts tries every one)
      .filter((s) => !/[\n\r\v\f\u0085\u2028\u2029]/.test(s.trim()));
    await fc.assert(
      fc.asyncProperty(text, async (name) => {
        const post = await d.call(d.admin, 'POST', '/api/shops', {
          name,
          categoryId: fx.category.id,
          floorId: fx.floor.id,
        });
        expect(post.statusCode, post.body).toBe(201);
        const shop = post.json() as ShopDetail;
        const stored = name.trim().normalize('NFC');
        expect(shop.name).toBe(stored);
        const read = await d.call(d.user, 'GET', `/api/shops/${shop.id}`);
        expect((read.json() as ShopDetail).name).toBe(stored);
      }),
      { numRuns: RUNS },
    );
  });
});
