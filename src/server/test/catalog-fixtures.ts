// Fixtures for the directory API tests (categories, floors, shops, products, offers): one admin and one
// user per test file, helpers that create rows through the API with unique names, and row counts read
// straight from the database.
import { randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ApiErrorBody } from '../../shared/errors';
import type { Offer, OfferInput } from '../../shared/offer';
import type { Place } from '../../shared/place';
import type { Product, ProductInput } from '../../shared/product';
import type { ShopDetail, ShopInput } from '../../shared/shop';
import { addDays } from '../db/demo-data';
import { mallToday } from '../lib/mall-time';
import { registerAs, type SignedIn, TEST_TIME_ZONE, type TestApp } from './harness';

export { addDays };

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Table = 'categories' | 'floors' | 'amenities' | 'shops' | 'products' | 'offers' | 'events';
/** Who sends a request: a signed-in person, or null for an anonymous visitor. */
export type As = SignedIn | null;

/** A uuid no row has (random v4). */
export const unknownId = (): string => randomUUID();

let sequence = 0;
/** A name no other test uses: `${prefix} 7 a1b2c3`. */
export function uniqueName(prefix = 'Item'): string {
  sequence += 1;
  return `${prefix} ${sequence} ${randomBytes(3).toString('hex')}`;
}

export interface Directory {
  t: TestApp;
  admin: SignedIn;
  user: SignedIn;
  call(as: As, method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  /** The mall's date now, by the app's clock. */
  today(): string;
  /** The mall's date `days` from today. */
  day(days: number): string;
  category(name?: string): Promise<Place>;
  floor(name?: string): Promise<Place>;
  /** A shop; a new category and floor unless given. */
  shop(fields?: Partial<ShopInput>): Promise<ShopDetail>;
  /** A product priced 10.00; in a new shop unless given. */
  product(fields?: Partial<ProductInput>): Promise<Product>;
  /** A 10% offer running from today for 30 days; in a new shop unless given. */
  offer(fields?: Partial<OfferInput>): Promise<Offer>;
  /** A new user account that manages `shopId` (invited by the admin, accepted with the code). */
  manager(shopId: string): Promise<SignedIn>;
  /** The one-time code of a new manager invite for `shopId`. */
  managerInvite(shopId: string): Promise<string>;
  count(table: Table): Promise<number>;
  /** Rows of `table` whose `column` is `value`. */
  countWhere(table: Table, column: 'shop_id' | 'offer_id', value: string): Promise<number>;
  /** The stored row, as the database has it (undefined when there is none). */
  row(table: Table, id: string): Promise<Record<string, unknown> | undefined>;
}

function created<T>(response: LightMyRequestResponse, what: string): T {
  if (response.statusCode !== 201) {
    throw new Error(`creating a ${what} failed: ${response.statusCode} ${response.body}`);
  }
  return response.json() as T;
}

export async function openDirectory(t: TestApp): Promise<Directory> {
  const admin = await registerAs(t.app, 'admin');
  const user = await registerAs(t.app, 'user');
  const pool = t.database.pool;

  const call: Directory['call'] = (as, method, url, payload) =>
    t.app.inject({
      method,
      url,
      headers: as ? as.headers : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const today = () => mallToday(TEST_TIME_ZONE, t.now());

  const directory: Directory = {
    t,
    admin,
    user,
    call,
    today,
    day: (days) => addDays(today(), days),
    async category(name = uniqueName('Category')) {
      return created<Place>(await call(admin, 'POST', '/api/categories', { name }), 'category');
    },
    async floor(name = uniqueName('Floor')) {
      return created<Place>(await call(admin, 'POST', '/api/floors', { name }), 'floor');
    },
    async shop(fields = {}) {
      const payload = {
        name: uniqueName('Shop'),
        categoryId: fields.categoryId ?? (await directory.category()).id,
        floorId: fields.floorId ?? (await directory.floor()).id,
        ...fields,
      };
      return created<ShopDetail>(await call(admin, 'POST', '/api/shops', payload), 'shop');
    },
    async product(fields = {}) {
      const payload = {
        name: uniqueName('Product'),
        price: 10,
        shopId: fields.shopId ?? (await directory.shop()).id,
        ...fields,
      };
      return created<Product>(await call(admin, 'POST', '/api/products', payload), 'product');
    },
    async offer(fields = {}) {
      const payload = {
        title: uniqueName('Offer'),
        discount: 10,
        startDate: today(),
        endDate: addDays(today(), 30),
        shopId: fields.shopId ?? (await directory.shop()).id,
        ...fields,
      };
      return created<Offer>(await call(admin, 'POST', '/api/offers', payload), 'offer');
    },
    async managerInvite(shopId) {
      const response = await call(admin, 'POST', `/api/shops/${shopId}/manager-invites`);
      return created<{ invite: { code: string } }>(response, 'manager invite').invite.code;
    },
    async manager(shopId) {
      const person = await registerAs(t.app, 'user');
      const code = await directory.managerInvite(shopId);
      const accepted = await call(person, 'POST', '/api/manager-invites/accept', { code });
      if (accepted.statusCode !== 200)
        throw new Error(`accepting failed: ${accepted.statusCode} ${accepted.body}`);
      return { ...person, user: { ...person.user, managedShopIds: [...person.user.managedShopIds, shopId] } };
    },
    async count(table) {
      const result = await pool.query<{ n: number }>(`select count(*)::int as n from ${table}`);
      return result.rows[0]?.n ?? Number.NaN;
    },
    async countWhere(table, column, value) {
      const result = await pool.query<{ n: number }>(
        `select count(*)::int as n from ${table} where ${column} = $1`,
        [value],
      );
      return result.rows[0]?.n ?? Number.NaN;
    },
    async row(table, id) {
      const result = await pool.query<Record<string, unknown>>(`select * from ${table} where id = $1`, [id]);
      return result.rows[0];
    },
  };
  return directory;
}

/** The response is `status` with this code and message (and, when given, this field's message). */
export function expectError(
  response: LightMyRequestResponse,
  status: number,
  code: string,
  message: string,
  field?: string,
): void {
  expect(response.statusCode, response.body).toBe(status);
  const { error } = response.json() as ApiErrorBody;
  expect(error.code).toBe(code);
  expect(error.message).toBe(message);
  if (field !== undefined) expect(error.fields?.[field]).toBe(message);
}

/** A 400 carrying the form's message in `message` and under `fields[field]`. */
export function expectFieldError(response: LightMyRequestResponse, field: string, message: string): void {
  expectError(response, 400, 'VALIDATION', message, field);
}
