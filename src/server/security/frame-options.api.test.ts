// Framing (clickjacking): the CSP says frame-ancestors 'none', and X-Frame-Options — what browsers that
// ignore frame-ancestors read — must say the same, DENY, not helmet's default SAMEORIGIN (which lets any
// page of the mall frame another). Checked on a page, an API answer, an API error and the reference page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_DOCS_PATH } from '../app';
import { createTestApp, type TestApp } from '../test/harness';

const INDEX_HTML = '<!doctype html><html><head></head><body><div id="root"></div></body></html>';

let clientDir: string;
let t: TestApp;
beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mall-client-'));
  fs.writeFileSync(path.join(clientDir, 'index.html'), INDEX_HTML);
  t = await createTestApp({ clientDir });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

/** The frame-ancestors directive of a CSP header, as written. */
const frameAncestors = (csp: unknown) =>
  String(csp)
    .split(';')
    .map((directive) => directive.trim())
    .find((directive) => directive.startsWith('frame-ancestors '));

describe('framing', () => {
  it.each([
    ['a page', '/login', 200],
    ['an unknown page', '/no-such-page', 404],
    ['an API answer', '/api/settings', 200],
    ['an API error', '/api/stats', 401],
    ['the API reference page', API_DOCS_PATH, 200],
    // answered before routing, without the hooks (frameworkErrors)
    ['a badly encoded URL', '/api/shops/%zz', 400],
    ['an id too long for the router', `/api/shops/${'x'.repeat(200)}`, 414],
  ])('is refused by X-Frame-Options and the CSP alike on %s', async (_what, url, status) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(status);
    expect(frameAncestors(response.headers['content-security-policy'])).toBe("frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
  });
});
