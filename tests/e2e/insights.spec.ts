// Insights and search synonyms (issue 34, docs/decisions/035), through the screens at a phone's and a
// desktop's width: three visitors (three browsers: a search text is kept once 3 sessions typed it) search
// for a word the mall does not have; the office sees it under "Searches that found nothing", adds a
// synonym from there, and the same search then finds the shop. A shop's manager sees the views of their
// shop's page on /manage. Every screen axe-clean.
import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiCreate, createShop, PASSWORD, registerAdmin, registerUser, uniqueEmail } from './fixtures';
import { expectNoAxeViolations } from './support/axe';

const WIDTHS = [375, 1280] as const;
const AGENTS = ['Firefox/131.0', 'Edg/130.0', 'OPR/115.0'];

/** A word of random letters: nothing in the demo mall is like it, so typo tolerance finds nothing either. */
function randomWord(length: number): string {
  return Array.from({ length }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
}

async function visitor(browser: Browser, width: number, agent: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    viewport: { width, height: 800 },
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 ${agent}`,
  });
  return context.newPage();
}

/** Searches on the public search page and waits until the browser has reported it. */
async function searchAndReport(page: Page, q: string, expectFound: boolean): Promise<void> {
  const reported = page.waitForResponse(
    (response) => response.url().endsWith('/api/insights/hits') && response.status() === 204,
  );
  await page.goto(`/search?q=${encodeURIComponent(q)}`);
  if (expectFound) await expect(page.getByText('Nothing found')).toHaveCount(0);
  else await expect(page.getByText('Nothing found')).toBeVisible();
  await reported;
}

for (const width of WIDTHS) {
  test.describe(`Insights at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a search that found nothing shows in Insights, a synonym from there makes it find the shop', async ({
      page,
      browser,
    }) => {
      // Three visitors, the counts' flush and an import run (as import-export.spec.ts): past 30 s on a busy machine.
      test.slow();
      const word = randomWord(9);
      const term = `plimsoll${randomWord(5)}`;
      await registerAdmin(page);
      const shop = await createShop(page, { name: `Sneaker ${word}` });

      for (const agent of AGENTS) {
        const shopper = await visitor(browser, width, agent);
        await searchAndReport(shopper, term, false);
        await shopper.context().close();
      }

      const chartLibrary = page.waitForRequest((request) => /uplot/i.test(request.url()));
      await page.goto('/admin/insights');
      // Its views per day are drawn by the chart library, loaded for this screen (decision 035).
      await chartLibrary;
      const empty = page.getByRole('region', { name: 'Searches that found nothing' });
      // The counts reach the database within the server's flush interval.
      await expect(async () => {
        await page.reload();
        await expect(empty.getByRole('cell', { name: term, exact: true })).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      await expectNoAxeViolations(page, 'Insights');

      await empty.getByRole('button', { name: `Add a synonym for ${term}` }).click();
      const form = page.getByRole('form', { name: 'Add a synonym' }).last();
      await expect(form.getByLabel('Term')).toHaveValue(term);
      await form.getByLabel('Searched as').fill(`sneaker ${word}`);
      await form.getByRole('button', { name: 'Add synonym' }).click();
      await expect(page.getByText(`“${term}” now searches “sneaker ${word}”`)).toBeVisible();

      // The same search now finds the shop, for anyone, at once.
      const later = await visitor(browser, width, AGENTS[0] ?? '');
      await later.goto(`/search?q=${encodeURIComponent(term)}`);
      await expect(later.getByRole('link', { name: new RegExp(shop.name) }).first()).toBeVisible();
      await later.context().close();

      await page.goto('/admin/synonyms');
      await expect(page.getByRole('cell', { name: term, exact: true })).toBeVisible();
      await expectNoAxeViolations(page, 'Search synonyms');
      // A file of synonyms: the shared import, its kind chosen (docs/decisions/038), reached by keyboard.
      const imported = `kicks${randomWord(6)}`;
      await page.getByRole('link', { name: 'Import', exact: true }).focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL('/admin/imports/new?kind=synonyms');
      await expect(page.getByRole('heading', { level: 1, name: 'Import search synonyms' })).toBeVisible();
      const kind = page.getByLabel('What the file holds');
      await expect(kind).toHaveValue('synonyms');
      await expect(kind.getByRole('option')).toHaveText([
        'Shops',
        'Products',
        'Offers',
        'Events',
        'Search synonyms',
      ]);
      await expect(page.getByRole('link', { name: 'Download the template' })).toHaveAttribute(
        'href',
        '/api/imports/template/synonyms',
      );
      await expectNoAxeViolations(page, 'Import search synonyms');
      await page.getByLabel('CSV file').setInputFiles({
        name: 'synonyms.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`term,replacement\n${imported},sneaker ${word}\n!!!,toilets\n`),
      });
      await page.getByRole('button', { name: 'Check the file' }).click();
      await expect(page.getByRole('heading', { name: 'Preview' })).toBeVisible();
      const refused = page.getByRole('table', { name: 'Refused rows' });
      await expect(
        refused.getByRole('row', { name: /3 term Use at least one letter or digit/ }),
      ).toBeVisible();
      await page.getByLabel(/Import the valid rows only/).check();
      await page.getByRole('button', { name: 'Import 1 row' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Imported: 1 created, 0 updated' }),
      ).toBeVisible({
        timeout: 30_000,
      });
      await page.goto('/admin/synonyms');
      await expect(page.getByRole('cell', { name: imported, exact: true })).toBeVisible();
      // The imported synonym works in search at once.
      const searcher = await visitor(browser, width, AGENTS[1] ?? '');
      await searcher.goto(`/search?q=${encodeURIComponent(imported)}`);
      await expect(searcher.getByRole('link', { name: new RegExp(shop.name) }).first()).toBeVisible();
      await searcher.context().close();
    });

    test('the Privacy page is linked from the footer and says what is never kept', async ({ page }) => {
      // The chart library is Insights' own: the shoppers' pages never load it (decision 035).
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.url());
      });
      await page.goto('/shops');
      await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).click();
      await expect(page).toHaveURL('/privacy');
      await expect(page.getByRole('heading', { level: 1, name: 'Privacy' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'What we never keep' })).toBeVisible();
      await expectNoAxeViolations(page, 'Privacy');
      // A signed-in shopper's pages link it too.
      await registerUser(page);
      await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).click();
      await expect(page).toHaveURL('/privacy');
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((url) => /uplot/i.test(url))).toEqual([]);
    });

    test("a shop's manager sees the views of their shop's page", async ({ page, browser }) => {
      await registerAdmin(page);
      const shop = await createShop(page, { name: `Numbers ${randomWord(8)}` });
      const { invite } = await apiCreate<{ invite: { code: string } }>(
        page,
        `/api/shops/${shop.id}/manager-invites`,
        {},
      );

      // Two visits of the shop's public page (counted by the server as it sends the page).
      const shopper = await visitor(browser, width, AGENTS[1] ?? '');
      await shopper.goto(`/shops/${shop.id}`);
      await expect(shopper.getByRole('heading', { level: 1, name: shop.name })).toBeVisible();
      await shopper.reload();
      await expect(shopper.getByRole('heading', { level: 1, name: shop.name })).toBeVisible();
      await shopper.context().close();

      const manager = await visitor(browser, width, AGENTS[2] ?? '');
      await registerUser(manager, { email: uniqueEmail('manager'), password: PASSWORD });
      const accepted = await manager.request.post('/api/manager-invites/accept', {
        data: { code: invite.code },
      });
      expect(accepted.status()).toBe(200);

      await manager.goto(`/manage/shops/${shop.id}`);
      const numbers = manager.getByRole('region', { name: "Your shop's numbers" });
      await expect(async () => {
        await manager.reload();
        const views = numbers.getByText('Page views', { exact: true }).locator('xpath=following-sibling::dd');
        expect(Number(await views.textContent({ timeout: 2_000 }))).toBeGreaterThanOrEqual(2);
      }).toPass({ timeout: 20_000 });
      await expectNoAxeViolations(manager, "a manager's shop page with its numbers");
      await manager.context().close();
    });
  });
}
