import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { action, registerUser, scrollWidth } from './fixtures';

// The build the test server serves (npm run test:e2e builds first).
const clientDir = fileURLToPath(new URL('../../dist/client', import.meta.url));

/** The part of the browser's `performance` the budget test reads. */
interface BrowserTiming {
  getEntriesByType(
    type: 'navigation' | 'resource',
  ): { name: string; startTime: number; initiatorType?: string; domContentLoadedEventEnd?: number }[];
}

test.describe('Landing page /', () => {
  test('shows the hero, four feature cards and the call to action', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Super Mall');
    // The four feature cards: multiple shops, best offers, comparing products, a personalized experience.
    const cards = page
      .getByRole('region', { name: 'Everything you need for a great visit' })
      .getByRole('listitem');
    await expect(cards).toHaveCount(4);
    await expect(cards.getByRole('heading')).toHaveText([/shops/i, /offers/i, /compar/i, /personali[sz]ed/i]);
    for (const card of await cards.all()) await expect(card).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Join thousands of happy customers' })).toBeVisible();
    await expect(action(page, 'Get Started')).toBeVisible();
    await expect(action(page, 'Join Now')).toBeVisible();
    // The demo mall's events (dated from the day it was loaded): the next three.
    await expect(page.getByRole('region', { name: "What's on" }).getByRole('listitem')).toHaveCount(3);
  });

  test("'Get Started' goes to /login when signed out", async ({ page }) => {
    await page.goto('/');
    await action(page, 'Get Started').click();
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  });

  test("'Get Started' goes to /user/dashboard when signed in as a user", async ({ page }) => {
    const { email } = await registerUser(page);
    await page.goto('/');
    await action(page, 'Get Started').click();
    await expect(page).toHaveURL('/user/dashboard');
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  });

  test("'Join Now' goes to /register", async ({ page }) => {
    await page.goto('/');
    await action(page, 'Join Now').click();
    await expect(page).toHaveURL('/register');
    await expect(page.getByRole('heading', { name: 'Create Account' })).toBeVisible();
  });

  test('loads at most 100 KB of JavaScript (gzip) before it is interactive, and no area of the app', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Scripts requested before DOMContentLoaded: the entry and what it imports. Later ones (the
    // Toaster, loaded when the browser is idle) come after the page is interactive.
    // (The tests' TypeScript knows Node's `performance`, not the browser's: its entries are typed here.)
    const early = await page.evaluate(() => {
      const timing = performance as unknown as BrowserTiming;
      const [navigation] = timing.getEntriesByType('navigation');
      return timing
        .getEntriesByType('resource')
        .filter((entry) => entry.initiatorType === 'script' || entry.name.endsWith('.js'))
        .filter((entry) => entry.startTime <= (navigation?.domContentLoadedEventEnd ?? 0))
        .map((entry) => new URL(entry.name).pathname);
    });
    expect(early.length).toBeGreaterThan(0);
    // The size each file has gzip'd, as the build wrote it (files under 1 KB are not precompressed).
    const gzipBytes = (pathname: string) => {
      const file = path.join(clientDir, pathname);
      return fs.existsSync(`${file}.gz`)
        ? fs.statSync(`${file}.gz`).size
        : gzipSync(fs.readFileSync(file)).length;
    };
    const total = early.reduce((sum, pathname) => sum + gzipBytes(pathname), 0);
    expect(total).toBeLessThanOrEqual(100_000);
    // The areas load when a path needs them (router.tsx, vite.config.ts): not with the landing page,
    // nor once it has settled.
    await page.waitForLoadState('networkidle');
    const all = await page.evaluate(() =>
      (performance as unknown as BrowserTiming)
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname),
    );
    expect(all.length).toBeGreaterThanOrEqual(early.length);
    for (const pathname of all) expect(path.basename(pathname)).not.toMatch(/^(admin|user|auth|forms|data)-/);
  });

  test('has no horizontal scroll at 375 px', { tag: '@phone' }, async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText('Join thousands of happy customers')).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  });
});
