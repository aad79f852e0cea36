// The compare list keeps product ids and reads the products from the server each time it is shown:
// what an admin changes meanwhile (a price, a deleted product) is what the shopper sees.
import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  apiDelete,
  confirmDialog,
  createOffer,
  createProduct,
  createShop,
  type Named,
  registerAdmin,
  registerUser,
  rowWith,
  toast,
  uniqueName,
} from './fixtures';
import { card, compareNavLink } from './user-fixtures';

const table = (page: Page) => page.getByRole('table', { name: 'Products selected for comparison' });
const compareRow = (page: Page, name: string) => table(page).getByRole('row').filter({ hasText: name });
const productCard = (page: Page, name: string) => card(page.getByRole('region', { name: 'Products' }), name);

interface Mall {
  admin: Page;
  shop: Named;
  lamp: Named;
  kettle: Named;
  toaster: Named;
  close(): Promise<void>;
}

/**
 * An admin in a browser context of their own, with a shop of three products: a lamp on a 50% offer
 * (₹4,200.00 → ₹2,100.00), a kettle at ₹2,500.00 and a toaster at ₹1,500.00 (the cheapest).
 */
async function openMall(browser: Browser): Promise<Mall> {
  const context = await browser.newContext();
  const admin = await context.newPage();
  await registerAdmin(admin);
  const shop = await createShop(admin);
  const offer = await createOffer(admin, shop.id, { discount: 50 });
  const lamp = await createProduct(admin, shop.id, {
    name: uniqueName('Zeta Lamp'),
    price: 4200,
    offerId: offer.id,
  });
  const kettle = await createProduct(admin, shop.id, { name: uniqueName('Zeta Kettle'), price: 2500 });
  const toaster = await createProduct(admin, shop.id, { name: uniqueName('Zeta Toaster'), price: 1500 });
  return {
    admin,
    shop,
    lamp,
    kettle,
    toaster,
    async close() {
      await apiDelete(admin, `/api/shops/${shop.id}`);
      await context.close();
    },
  };
}

/** The shopper opens the shop and presses Compare on each product. */
async function addToCompare(page: Page, mall: Mall, products: Named[]) {
  await page.goto(`/user/shops/${mall.shop.id}`);
  await expect(page.getByRole('heading', { name: mall.shop.name, level: 1 })).toBeVisible();
  for (const product of products) {
    await productCard(page, product.name).getByRole('button', { name: 'Compare' }).click();
  }
  await expect(compareNavLink(page)).toHaveAccessibleName(`Compare (${products.length} products)`);
}

test.describe('Shopper: the compare list shows products as they are now', () => {
  test('an admin changes a price and deletes a product: the compare page shows it, Lowest price follows', async ({
    page,
    browser,
  }) => {
    const mall = await openMall(browser);
    try {
      await registerUser(page);
      await addToCompare(page, mall, [mall.lamp, mall.kettle, mall.toaster]);
      await compareNavLink(page).click();
      await expect(page).toHaveURL('/user/compare');
      await expect(table(page).getByRole('row')).toHaveCount(4);
      await expect(compareRow(page, mall.lamp.name).getByText('₹2,100.00')).toBeVisible();
      await expect(compareRow(page, mall.lamp.name).locator('s')).toHaveText(/₹4,200\.00/);
      await expect(compareRow(page, mall.kettle.name).getByText('₹2,500.00')).toBeVisible();
      await expect(compareRow(page, mall.toaster.name).getByText('Lowest price')).toBeVisible();
      await expect(table(page).getByText('Lowest price')).toHaveCount(1);

      // Meanwhile, in the admin's browser: the kettle gets cheaper and the toaster is deleted.
      const { admin } = mall;
      await admin.goto(`/admin/products/${mall.kettle.id}`);
      await expect(admin.getByLabel('Price')).toHaveValue('2500');
      await admin.getByLabel('Price').fill('1999.5');
      await admin.getByRole('button', { name: 'Update Product' }).click();
      await expect(toast(admin, 'Product updated')).toBeVisible();
      await admin.getByLabel('Search products').fill(mall.kettle.name);
      await expect(
        rowWith(admin, mall.kettle.name).getByRole('cell', { name: '$1,999.50', exact: true }),
      ).toBeVisible();

      await admin.getByLabel('Search products').fill(mall.toaster.name);
      await rowWith(admin, mall.toaster.name).getByRole('button', { name: 'Delete' }).click();
      await confirmDialog(admin).getByRole('button', { name: 'Delete' }).click();
      await expect(toast(admin, 'Product deleted')).toBeVisible();

      // The shopper comes back to the compare page (no reload): the products are read again.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Shops', exact: true })
        .click();
      await expect(page).toHaveURL('/user/shops');
      await compareNavLink(page).click();
      await expect(page).toHaveURL('/user/compare');

      const kettle = compareRow(page, mall.kettle.name);
      await expect(kettle.getByText('₹1,999.50')).toBeVisible();
      await expect(kettle.getByText('₹2,500.00')).toHaveCount(0);
      // The toaster was read before on this page, so its name stays beside the notice.
      const toaster = compareRow(page, mall.toaster.name);
      await expect(toaster.getByText('No longer available')).toBeVisible();
      await expect(toaster.getByText('₹1,500.00')).toHaveCount(0);
      // ₹1,999.50 now beats the lamp's ₹2,100.00; the deleted toaster's old ₹1,500.00 counts for nothing.
      await expect(kettle.getByText('Lowest price')).toBeVisible();
      await expect(table(page).getByText('Lowest price')).toHaveCount(1);

      // After a reload only the ids are left: the same current facts, the deleted one without its name.
      await page.reload();
      await expect(compareRow(page, mall.kettle.name).getByText('₹1,999.50')).toBeVisible();
      await expect(compareRow(page, mall.kettle.name).getByText('Lowest price')).toBeVisible();
      await expect(compareRow(page, mall.lamp.name).getByText('₹2,100.00')).toBeVisible();
      const gone = compareRow(page, 'No longer available');
      await expect(gone).toHaveCount(1);
      await expect(table(page).getByText(mall.toaster.name)).toHaveCount(0);

      // The deleted product can be taken off the list.
      await gone.getByRole('button', { name: 'Remove unavailable product' }).click();
      await expect(table(page).getByRole('row')).toHaveCount(3);
      await expect(table(page).getByText('No longer available')).toHaveCount(0);
      await expect(compareNavLink(page)).toHaveAccessibleName('Compare (2 products)');
      await expect(page.getByRole('button', { name: `Remove ${mall.kettle.name}` })).toBeFocused();
    } finally {
      await mall.close();
    }
  });

  test('a product that fails to load says so, and Try again reads it', async ({ page, browser }) => {
    const mall = await openMall(browser);
    try {
      await registerUser(page);
      await addToCompare(page, mall, [mall.kettle, mall.toaster]);

      let failing = true;
      await page.route(`**/api/products/${mall.kettle.id}`, (route) =>
        failing
          ? route.fulfill({ status: 503, json: { error: { code: 'UNAVAILABLE', message: 'Service busy' } } })
          : route.continue(),
      );
      await compareNavLink(page).click();
      await expect(page).toHaveURL('/user/compare');

      // A 5xx is retried a few times before it shows; the other product shows meanwhile.
      await expect(compareRow(page, mall.toaster.name).getByText('₹1,500.00')).toBeVisible();
      const alert = table(page).getByRole('alert');
      await expect(alert).toContainText('Service busy', { timeout: 15_000 });
      // A product that could not be read might be the cheapest: no Lowest price until it is.
      await expect(table(page).getByText('Lowest price')).toHaveCount(0);

      failing = false;
      await alert.getByRole('button', { name: 'Try again' }).click();
      await expect(compareRow(page, mall.kettle.name).getByText('₹2,500.00')).toBeVisible();
      await expect(table(page).getByRole('alert')).toHaveCount(0);
      await expect(compareRow(page, mall.toaster.name).getByText('Lowest price')).toBeVisible();
    } finally {
      await mall.close();
    }
  });
});
