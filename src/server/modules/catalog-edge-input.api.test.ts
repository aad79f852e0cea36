// Inputs at the edges of what the schemas and the database accept: each is refused with a 4xx in the
// one error shape, never a 500, and the role is checked before the input is even read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../shared/errors';
import {
  type Directory,
  expectFieldError,
  openDirectory,
  uniqueName,
  unknownId,
} from '../test/catalog-fixtures';
import { createTestApp, registerAs, type TestApp } from '../test/harness';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

describe('inputs at the edges', () => {
  it.each(['/api/shops?q=%00', '/api/products?q=a%00b', '/api/products?category=%00', '/api/offers?q=%00'])(
    'refuses a NUL in search text with 400, not 500: %s',
    async (url) => {
      const response = await d.call(d.user, 'GET', url);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION');
    },
  );

  it.each([
    '/api/shops?q=a%C2%85b',
    '/api/products?q=%C2%9B31m',
    '/api/products?category=%C2%80',
    '/api/offers?q=%C2%9F',
  ])('refuses a C1 control in search text with 400, as a NUL: %s', async (url) => {
    const response = await d.call(d.user, 'GET', url);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION',
      message: 'Remove the control characters',
    });
  });

  it('trims line and paragraph separators around search text, as it trims spaces', async () => {
    const token = uniqueName('Sep').replaceAll(' ', '');
    await d.shop({ name: `${token} Shoes` });
    const found = await d.call(d.user, 'GET', `/api/shops?q=${encodeURIComponent(`\u2028${token}\u2029`)}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().total).toBe(1);
  });

  it('refuses year 0000 with "Enter a real date", not a 500', async () => {
    const shop = await d.shop();
    const before = await d.count('offers');
    const payload = {
      title: uniqueName(),
      discount: 5,
      startDate: '0000-01-01',
      endDate: d.today(),
      shopId: shop.id,
    };
    expectFieldError(await d.call(d.admin, 'POST', '/api/offers', payload), 'startDate', 'Enter a real date');
    expect(await d.count('offers')).toBe(before);
    const offer = await d.offer({ shopId: shop.id });
    expectFieldError(
      await d.call(d.admin, 'PATCH', `/api/offers/${offer.id}`, { startDate: '0000-01-01' }),
      'startDate',
      'Enter a real date',
    );
  });

  it('refuses half an emoji (a lone surrogate) instead of storing a replacement character', async () => {
    const before = await d.count('categories');
    expectFieldError(
      await d.call(d.admin, 'POST', '/api/categories', { name: 'bad \ud800' }),
      'name',
      'Remove the broken characters',
    );
    expect(await d.count('categories')).toBe(before);
    const whole = await d.call(d.admin, 'POST', '/api/categories', { name: `Smile ${uniqueName()} 😀` });
    expect(whole.statusCode).toBe(201);
  });

  it('checks the role before the body: anonymous 401, user 403, even for invalid input', async () => {
    for (const [as, status] of [
      [null, 401],
      [d.user, 403],
    ] as const) {
      expect((await d.call(as, 'POST', '/api/categories', { name: '' })).statusCode).toBe(status);
      expect((await d.call(as, 'PATCH', `/api/shops/${unknownId()}`, { name: '' })).statusCode).toBe(status);
      expect((await d.call(as, 'DELETE', '/api/offers/not-a-uuid')).statusCode).toBe(status);
    }
    // A read a visitor may not make: refused before its query is looked at.
    expect((await d.call(null, 'GET', '/api/audit?page=0')).statusCode).toBe(401);
    expect((await d.call(d.user, 'GET', '/api/audit?page=0')).statusCode).toBe(403);
    expect((await d.call(d.admin, 'GET', '/api/audit?page=0')).statusCode).toBe(400);
    // The directory's reads are a visitor's too (the public directory, docs/decisions/034): checked as anyone's.
    expect((await d.call(null, 'GET', '/api/shops?pageSize=1000')).statusCode).toBe(400);
    // (an id that cannot exist: 404, as for anyone)
    expect((await d.call(null, 'GET', '/api/products/not-a-uuid')).statusCode).toBe(404);
  });

  it('answers a failing query with the bare 500 body: no SQL, table names or stack', async () => {
    const broken = await createTestApp();
    try {
      const user = await registerAs(broken.app, 'user');
      const rename = (from: string, to: string) =>
        broken.database.pool.query(`alter table ${from} rename to ${to}`);
      await rename('floors', 'floors_gone');
      await rename('sign_in_attempts', 'sign_in_attempts_gone');
      const directory = await broken.app.inject({ method: 'GET', url: '/api/floors', headers: user.headers });
      const signIn = await broken.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'someone@example.com', password: 'secret1' },
      });
      expect(directory.statusCode).toBe(500);
      expect(directory.json()).toEqual({
        error: { code: 'INTERNAL', message: 'Something went wrong. Please try again.' },
      });
      expect(signIn.statusCode).toBe(500);
      expect(signIn.json()).toEqual({ error: { code: 'INTERNAL', message: AUTH_MESSAGES.other } });
    } finally {
      await broken.close();
    }
  });

  it('answers a badly encoded path in the one error shape', async () => {
    const response = await d.call(d.user, 'GET', '/api/shops/%C3%28');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
  });

  it.each([
    ['/api/shops/not-a-uuid', 'Shop not found'],
    ['/api/products/not-a-uuid', 'Product not found'],
    ['/api/offers/not-a-uuid', 'Offer not found'],
  ])('answers an id that cannot exist with 404: %s', async (url, message) => {
    const response = await d.call(d.user, 'GET', url);
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toEqual({ code: 'NOT_FOUND', message });
  });

  it('lists by name the way people read it, not by byte order', async () => {
    const tag = uniqueName('Sort');
    for (const name of ['Banana', 'apple', 'Cherry']) {
      expect((await d.call(d.admin, 'POST', '/api/categories', { name: `${tag} ${name}` })).statusCode).toBe(
        201,
      );
    }
    const listed = (await d.call(d.user, 'GET', '/api/categories')).json().items as Array<{ name: string }>;
    expect(listed.map((c) => c.name).filter((name) => name.startsWith(tag))).toEqual([
      `${tag} apple`,
      `${tag} Banana`,
      `${tag} Cherry`,
    ]);
  });
});
