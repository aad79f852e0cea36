// The interactive API reference at /api/docs (docs/decisions/028): Swagger UI, served by the built
// server under the app's own Content-Security-Policy. It must draw the generated reference without a
// single CSP violation (no inline script, no inline style beyond what the policy allows), at a phone's
// width and a desktop's, and "Try it out" must reach the API from the page.
import { type Browser, expect, type Page, test } from '@playwright/test';

/** Records every CSP violation of the document into window.__cspViolations (runs before the page). */
const RECORD_CSP_VIOLATIONS = `
  window.__cspViolations = [];
  window.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(event.effectiveDirective + ' ' + event.blockedURI + ' ' + event.sourceFile);
  }, true);
`;

interface Seen {
  /** Console errors and warnings (a CSP refusal is logged as an error too). */
  console: string[];
  /** Uncaught exceptions of the page. */
  errors: string[];
  /** Requests that went anywhere but this server. */
  elsewhere: string[];
}

async function openDocs(browser: Browser, width: number): Promise<{ page: Page; seen: Seen }> {
  const baseURL = test.info().project.use.baseURL ?? '';
  const context = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
  const page = await context.newPage();
  const seen: Seen = { console: [], errors: [], elsewhere: [] };
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type())) seen.console.push(message.text());
  });
  page.on('pageerror', (error) => seen.errors.push(error.message));
  page.on('request', (request) => {
    if (!request.url().startsWith(new URL(baseURL).origin) && !request.url().startsWith('data:'))
      seen.elsewhere.push(request.url());
  });
  await page.addInitScript(RECORD_CSP_VIOLATIONS);
  return { page, seen };
}

async function expectClean(page: Page, seen: Seen): Promise<void> {
  await page.waitForLoadState('networkidle');
  // A macrotask later: violation events are queued as tasks.
  const violations = await page.evaluate<string[] | null>(
    'new Promise((resolve) => setTimeout(() => resolve(window.__cspViolations ?? null), 50))',
  );
  expect(violations, 'the CSP recorder is installed').not.toBeNull();
  expect(violations, 'CSP violations').toEqual([]);
  expect(seen.console, 'console errors and warnings').toEqual([]);
  expect(seen.errors, 'uncaught errors').toEqual([]);
  expect(seen.elsewhere, 'requests to other servers').toEqual([]);
}

for (const width of [1280, 375]) {
  test(`the API reference draws every route under the app's CSP at ${width} px`, async ({ browser }) => {
    const { page, seen } = await openDocs(browser, width);
    const response = await page.goto('/api/docs');
    expect(response?.status()).toBe(200);
    // The page answers with the app's own policy, not a looser one of the plugin's.
    const landing = await page.request.get('/');
    const csp = response?.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    // no inline script or stylesheet; style attributes only (style-src-attr, decision 034)
    expect(csp).not.toMatch(/(script-src|style-src) [^;]*unsafe-inline/);
    expect(csp).toBe(landing.headers()['content-security-policy']);
    await expect(page).toHaveTitle('Super Mall API reference');
    await expect(page.getByRole('heading', { name: /Super Mall API/ })).toBeVisible();
    // Routes from the generated document, by their paths.
    const listShops = page
      .locator('.opblock-get')
      .filter({ has: page.getByText('/api/shops', { exact: true }) });
    await expect(listShops).toBeVisible();
    await expect(page.getByText('/api/offers/{id}', { exact: true }).first()).toBeVisible();
    // Long paths wrap inside the page at a phone's width.
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(scrollWidth).toBeLessThanOrEqual(width);
    if (process.env.E2E_SCREENSHOTS)
      await page.screenshot({ path: `docs/screenshots/api-docs-${width}.png`, fullPage: false });
    await expectClean(page, seen);
    await page.context().close();
  });
}

test('Try it out calls the API from the reference, same origin, under the CSP', async ({ browser }) => {
  const { page, seen } = await openDocs(browser, 1280);
  await page.goto('/api/docs');
  const operation = page.locator('#operations-settings-get_api_settings');
  // Swagger UI's bundle (about 1 MB of script) draws the operations once parsed: on a CI machine whose
  // two cores ran another suite beside, that once took longer than the 10 s default.
  await expect(operation).toBeVisible({ timeout: 30_000 });
  // Opening it draws its schemas and then sets the page's #fragment (Swagger UI's deep link), which the
  // click waits for: that too once took over the 10 s default there.
  await operation.locator('.opblock-summary-control').click({ timeout: 30_000 });
  await operation.getByRole('button', { name: 'Try it out' }).click({ timeout: 30_000 });
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/settings');
  await operation.getByRole('button', { name: 'Execute' }).click();
  expect((await answer).status()).toBe(200);
  // The answer is shown on the page: the mall's time zone from the live server.
  await expect(operation.locator('.live-responses-table')).toContainText('timeZone');
  if (process.env.E2E_SCREENSHOTS)
    await page.screenshot({ path: 'docs/screenshots/api-docs-try-1280.png', fullPage: false });
  await expectClean(page, seen);
  await page.context().close();
});
