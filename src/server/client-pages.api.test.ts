import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/harness';

// A built client in miniature: the page, one hashed asset and the build's preload.json.
const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/index-1.js"></script></head><body></body></html>';
// The landing page as the build pre-renders it (scripts/prerender.mjs).
const LANDING_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/index-1.js"></script></head><body><div id="root" data-prerendered="landing"><h1>Super Mall</h1></div></body></html>';
const PRELOADS = {
  '/admin/': ['/assets/admin-1.js', '/assets/data-1.js'],
  '/user/': ['/assets/user-1.js', '/assets/data-1.js'],
  '/login': ['/assets/auth-1.js'],
};

let clientDir: string;
let t: TestApp;
beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mall-client-'));
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(path.join(clientDir, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(clientDir, 'landing.html'), LANDING_HTML);
  fs.writeFileSync(path.join(clientDir, 'preload.json'), JSON.stringify(PRELOADS));
  fs.writeFileSync(path.join(clientDir, 'assets', 'admin-1.js'), 'export const admin = 1;');
  t = await createTestApp({ clientDir });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

const page = async (url: string, status = 200) => {
  const response = await t.app.inject({ method: 'GET', url });
  expect(response.statusCode, url).toBe(status);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-cache');
  return response.body;
};
const preloadsIn = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);

describe('pages of the client', () => {
  it("list the chunks of the path's area as module preloads, inside <head>", async () => {
    const admin = await page('/admin/products?q=tea&page=2');
    expect(preloadsIn(admin)).toEqual(PRELOADS['/admin/']);
    expect(admin.indexOf('modulepreload')).toBeLessThan(admin.indexOf('</head>'));
    expect(admin).toContain('<script type="module" src="/assets/index-1.js"></script>');
    expect(preloadsIn(await page('/user/shops'))).toEqual(PRELOADS['/user/']);
    expect(preloadsIn(await page('/login'))).toEqual(PRELOADS['/login']);
  });

  it('send the pre-rendered landing page for / only (not with a query string of its own path elsewhere)', async () => {
    expect(await page('/')).toBe(LANDING_HTML);
    expect(await page('/?from=poster')).toBe(LANDING_HTML);
    expect(await page('/register')).not.toContain('data-prerendered="landing"');
  });

  it('send pages compressed to browsers that accept it (br first), plain to others', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(LANDING_HTML);
    const gzip = await t.app.inject({
      method: 'GET',
      url: '/nowhere',
      headers: { 'accept-encoding': 'gzip, br;q=0' },
    });
    expect(gzip.statusCode).toBe(404);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(INDEX_HTML);
    const plain = await t.app.inject({
      method: 'GET',
      url: '/login',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('send the plain page elsewhere: unknown paths (with 404)', async () => {
    expect(await page('/no-such-page', 404)).toBe(INDEX_HTML);
    // '/admin' alone is not an admin page (the client sends it on to /404)
    expect(await page('/admin', 404)).toBe(INDEX_HTML);
  });

  it("answer 200 for every page of the client's router and 404 for any other path, /404 included", async () => {
    const id = '0b5e4f8e-6a53-4c1e-9d52-2f0c1a7d9e11';
    for (const url of [
      '/',
      '/login',
      '/register?x=1',
      '/manage/invite?code=abc',
      '/unauthorized',
      '/account',
      '/admin/dashboard',
      '/admin/shops/new',
      `/admin/shops/${id}`,
      '/admin/products',
      '/user/shops?category=Food',
      `/user/shops/${id}`,
      '/privacy',
      `/manage/shops/${id}/products/${id}`,
      `/manage/shops/${id}/offers/new`,
    ])
      await page(url);
    for (const url of [
      '/404',
      '/nowhere',
      '/admin',
      '/user',
      `/user/shops/${id}/extra`,
      '/admin/shops/new/more',
      '/login/again',
      '/apis',
      '/index.html.bak',
    ])
      await page(url, 404);
    const head = await t.app.inject({ method: 'HEAD', url: '/nowhere' });
    expect(head.statusCode).toBe(404);
  });

  it('answer a page spelt another way the router takes (case, a trailing slash) with its one address', async () => {
    const id = '0B5E4F8E-6a53-4c1e-9d52-2f0c1a7d9e11';
    for (const [asked, location] of [
      ['/Privacy', '/privacy'],
      ['/PRIVACY/?x=1', '/privacy?x=1'],
      ['/admin/products/', '/admin/products'],
      ['/User/Offers', '/user/offers'],
      ['/Admin/Shops/NEW', '/admin/shops/new'],
      // a parameter is kept as it was asked: only the path's own words have one spelling
      [`/USER/shops/${id}/`, `/user/shops/${id}`],
      [`/Manage/Shops/${id}/Offers/New`, `/manage/shops/${id}/offers/new`],
      // a parameter's own ? or # stays in it, encoded: never a query or a fragment of the address
      ['/User/Shops/a%3Fb%23c', '/user/shops/a%3Fb%23c'],
    ] as const) {
      const response = await t.app.inject({ url: asked });
      expect(response.statusCode, asked).toBe(301);
      expect(response.headers.location, asked).toBe(location);
      await page(location);
    }
    // not a page in any spelling: still the 404
    await page('/Nowhere/', 404);
  });

  it('serve hashed assets for a year, and no page for API paths', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/admin-1.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const api = await t.app.inject({ method: 'GET', url: '/api/no-such-route' });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'No route for GET /api/no-such-route' },
    });
  });
});
