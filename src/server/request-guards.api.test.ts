import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toastStyleHashes } from './plugins/security-headers';
import { createTestApp, registerAs, type SignedIn, type TestApp } from './test/harness';

/** The documented limit (docs/security.md), written out: the test must not follow app.ts if it grows. */
const BODY_LIMIT = 64 * 1024;

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await registerAs(t.app, 'admin');
});
afterAll(async () => {
  await t?.close();
});

const categoryCount = async () =>
  (await t.database.pool.query<{ n: number }>('select count(*)::int as n from categories')).rows[0]?.n;

describe('request guards', () => {
  it('answers 415 to a write whose body is not JSON, writing nothing', async () => {
    const before = await categoryCount();
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/categories',
        headers: { ...admin.headers, 'content-type': contentType },
        payload: 'name=Sneaky',
      });
      expect(response.statusCode).toBe(415);
      expect(response.json().error.code).toBeTypeOf('string');
    }
    expect(await categoryCount()).toBe(before);
  });

  it('answers 413 to a body over 64 KiB before any handler runs', async () => {
    const before = await categoryCount();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/categories',
      headers: admin.headers,
      payload: { name: 'x'.repeat(BODY_LIMIT) },
    });
    expect(response.statusCode).toBe(413);
    expect(await categoryCount()).toBe(before);
  });

  it('refuses writes a browser marks as cross-site, sign-in included', async () => {
    const before = await categoryCount();
    const crossSite = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      // The right host under another scheme or port is another origin.
      { origin: 'https://localhost:80', host: 'localhost:80' },
      { origin: 'https://mall.example', host: 'mall.example' },
      { origin: 'http://mall.example:8081', host: 'mall.example:8080' },
    ];
    for (const headers of crossSite) {
      const write = await t.app.inject({
        method: 'POST',
        url: '/api/categories',
        headers: { ...admin.headers, ...headers },
        payload: { name: `Cross ${Math.random()}` },
      });
      expect(write.statusCode).toBe(403);
      expect(write.json().error.code).toBe('CROSS_SITE');
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers,
        payload: { email: admin.user.email, password: 'secret-password' },
      });
      expect(signIn.statusCode).toBe(403);
    }
    expect(await categoryCount()).toBe(before);
  });

  it('lets same-origin writes and cross-site reads through', async () => {
    const sameOrigin = await t.app.inject({
      method: 'POST',
      url: '/api/categories',
      headers: {
        ...admin.headers,
        'sec-fetch-site': 'same-origin',
        origin: 'http://mall.example:8080',
        host: 'mall.example:8080',
      },
      payload: { name: `Same ${Date.now()}` },
    });
    expect(sameOrigin.statusCode).toBe(201);
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/categories',
      headers: { ...admin.headers, 'sec-fetch-site': 'cross-site' },
    });
    expect(read.statusCode).toBe(200);
  });

  it('sends the security headers on every response', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    // Exactly the policy docs/security.md lists: no inline script, no inline stylesheet but the toasts' own
    // (by its hash), style attributes only (a server-rendered floor plan's pins: docs/decisions/034),
    // nothing from other origins.
    expect(response.headers['content-security-policy']).toBe(
      [
        "default-src 'self'",
        "script-src 'self'",
        "script-src-attr 'none'",
        "font-src 'self'",
        `style-src 'self' ${toastStyleHashes().join(' ')}`,
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
      ].join(';'),
    );
    expect(toastStyleHashes()).toEqual([
      // The empty <style> sonner appends first, then its stylesheet's text.
      "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
      expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/),
    ]);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('takes the scheme from a trusted proxy when it compares origins', async () => {
    const proxied = await createTestApp({ trustProxy: '127.0.0.1' });
    try {
      const signIn = (proto: string, origin: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'x-forwarded-proto': proto, host: 'mall.example', origin },
          payload: { email: 'nobody@example.com', password: 'secret-password' },
        });
      expect((await signIn('https', 'https://mall.example')).statusCode).toBe(401);
      expect((await signIn('https', 'http://mall.example')).statusCode).toBe(403);
      expect((await signIn('http', 'https://mall.example')).statusCode).toBe(403);
    } finally {
      await proxied.close();
    }
  });

  it('sends HSTS over HTTPS only', async () => {
    const proxied = await createTestApp({ trustProxy: '127.0.0.1' });
    try {
      const over = (proto: string) =>
        proxied.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': proto } });
      expect((await over('https')).headers['strict-transport-security']).toBe('max-age=15552000');
      expect((await over('http')).headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });
});
