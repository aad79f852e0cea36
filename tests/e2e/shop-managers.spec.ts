// Shop managers and offer approval (issue 14), through the screens: an admin invites a manager, a new
// visitor registers from the link and accepts, keeps the shop's page current, submits an offer that
// shoppers see only once an admin approves it, and is refused once the admin removes them.
import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  apiCreate,
  apiDelete,
  confirmDialog,
  createAccountButton,
  createProduct,
  createShop,
  emailField,
  localDate,
  PASSWORD,
  passwordField,
  registerAdmin,
  toast,
  uniqueEmail,
  uniqueName,
} from './fixtures';
import { expectNoAxeViolations } from './support/axe';

/** A fresh browser context: a new visitor with no session. */
async function newVisitor(browser: Browser, width = 1280): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    viewport: { width, height: 800 },
  });
  return context.newPage();
}

/** The message a removed manager's save gets: the server's 403, and what it most likely means. */
const REFUSED =
  "Only the mall office and this shop's managers can change it. You may no longer be one of its managers: ask the mall office.";

test.describe('Shop managers', () => {
  test('invite, register from the link, keep the shop current, an offer approved, removal refused', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    // ----- the admin: a shop with a product, and an invite link for its manager
    await registerAdmin(page);
    const shop = await createShop(page);
    const product = await createProduct(page, shop.id, { name: uniqueName('Zeta Lamp'), price: 10 });
    await page.goto(`/admin/shops/${shop.id}`);
    const panel = page.getByRole('region', { name: 'Shop managers' });
    await expect(panel.getByText('No one manages this shop yet.')).toBeVisible();
    await panel.getByRole('button', { name: 'Invite a manager' }).click();
    const linkField = panel.getByLabel(`Invite link for a manager of ${shop.name}`);
    await expect(linkField).toHaveValue(/\/manage\/invite#[A-Za-z0-9_-]+$/);
    const link = await linkField.inputValue();
    await expect(panel.getByRole('list', { name: 'Open manager invites' }).getByRole('listitem')).toHaveCount(
      1,
    );

    // ----- a new visitor opens the link: the code leaves the address bar, the page explains the invite
    const manager = await newVisitor(browser);
    await manager.goto(link);
    await expect(manager.getByRole('heading', { name: "You're invited to manage a shop" })).toBeVisible();
    await expect(manager).toHaveURL(/\/manage\/invite$/);
    await manager.getByRole('link', { name: 'Create an account' }).click();
    await expect(manager).toHaveURL('/register?next=%2Fmanage%2Finvite');
    const email = uniqueEmail('manager');
    await emailField(manager).fill(email);
    await passwordField(manager).fill(PASSWORD);
    // registration still defaults to a User account
    await expect(manager.getByLabel('Account Type')).toHaveValue('user');
    await createAccountButton(manager).click();

    // back on the invitation, signed in: the shop's name and Accept
    await expect(manager).toHaveURL('/manage/invite');
    await expect(manager.getByRole('heading', { name: `Manage ${shop.name}` })).toBeVisible();
    await expect(manager.getByRole('link', { name: 'My shops' })).toHaveCount(0);
    await manager.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(manager).toHaveURL(`/manage/shops/${shop.id}`);
    await expect(toast(manager, `You now manage ${shop.name}`)).toBeVisible();
    await expect(
      manager.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My shops' }),
    ).toBeVisible();

    // the link is spent
    await page.reload();
    await expect(
      panel.getByRole('list', { name: 'Managers' }).getByRole('button', { name: `Remove ${email}` }),
    ).toBeVisible();
    await expect(panel.getByText('No open invites.')).toBeVisible();

    // ----- the manager keeps the page current: the contact…
    await manager.getByRole('link', { name: 'Edit shop details' }).click();
    await expect(
      manager.getByText("The mall office changes a shop's name, category and floor"),
    ).toBeVisible();
    await expect(manager.getByLabel('Name')).toHaveCount(0);
    await manager.getByLabel('Contact').fill('+91 22 5555 0142');
    await manager.getByRole('button', { name: 'Save shop details' }).click();
    await expect(toast(manager, 'Shop details saved')).toBeVisible();
    await expect(manager).toHaveURL(`/manage/shops/${shop.id}`);

    // …and a product's price
    await manager.getByRole('link', { name: `Edit ${product.name}` }).click();
    await expect(manager.getByLabel('Shop')).toHaveCount(0);
    await manager.getByLabel('Price').fill('42.50');
    await manager.getByRole('button', { name: 'Update Product' }).click();
    await expect(toast(manager, 'Product updated')).toBeVisible();
    await expect(manager).toHaveURL(`/manage/shops/${shop.id}`);

    // the shopper's page shows both
    const shopper = await newVisitor(browser);
    await shopper.goto('/register');
    await emailField(shopper).fill(uniqueEmail('shopper'));
    await passwordField(shopper).fill(PASSWORD);
    await createAccountButton(shopper).click();
    await expect(shopper).toHaveURL('/user/dashboard');
    await shopper.goto(`/user/shops/${shop.id}`);
    await expect(shopper.getByText('+91 22 5555 0142')).toBeVisible();
    await expect(shopper.getByRole('article', { name: product.name }).getByText('₹42.50')).toBeVisible();

    // ----- an offer: waiting for approval, not shown to shoppers
    const title = uniqueName('Zeta Deal');
    await manager.getByRole('link', { name: 'Add offer' }).click();
    await expect(manager.getByText('The offer goes live after the mall office approves it.')).toBeVisible();
    await manager.getByLabel('Title').fill(title);
    await manager.getByLabel('Discount (%)').fill('15');
    await manager.getByLabel('End Date').fill(localDate(1));
    await manager.getByRole('button', { name: 'Send for approval' }).click();
    await expect(toast(manager, 'Offer sent for approval')).toBeVisible();
    const offerItem = manager.getByRole('list', { name: 'Offers' }).getByRole('listitem', { name: title });
    await expect(offerItem.getByText('Waiting for approval')).toBeVisible();

    await shopper.reload();
    await expect(shopper.getByRole('heading', { name: shop.name, level: 1 })).toBeVisible();
    await expect(shopper.getByText(title)).toHaveCount(0);
    await shopper.goto('/user/offers');
    await expect(shopper.getByRole('list', { name: 'Active offers' })).toBeVisible();
    await expect(shopper.getByText(title)).toHaveCount(0);

    // ----- the admin approves it in Approvals
    // the sidebar's count is read when the admin area opens (and every minute, and on focus)
    await page.reload();
    await page.getByRole('link', { name: /^Approvals, \d+ waiting$/ }).click();
    await expect(page).toHaveURL('/admin/approvals');
    const review = page.getByRole('listitem', { name: title });
    await expect(review.getByText(`Submitted by ${email}`)).toBeVisible();
    await expect(review.getByRole('link', { name: shop.name })).toBeVisible();
    await review.getByRole('button', { name: `Approve ${title}` }).click();
    await expect(toast(page, `"${title}" approved: now live`)).toBeVisible();
    await expect(page.getByRole('listitem', { name: title })).toHaveCount(0);

    // now shoppers see it, and the manager is told
    await shopper.goto(`/user/shops/${shop.id}`);
    await expect(shopper.getByRole('region', { name: 'Current Offers' }).getByText(title)).toBeVisible();
    await shopper.goto('/user/offers');
    await expect(shopper.getByRole('list', { name: 'Active offers' }).getByText(title)).toBeVisible();
    await manager.reload();
    await expect(offerItem.getByText('Live', { exact: true })).toBeVisible();
    await expect(
      manager.getByRole('region', { name: 'Recent history' }).getByText('Approved offer'),
    ).toBeVisible();

    // ----- the admin removes the manager: their next save is refused, clearly
    await page.goto(`/admin/shops/${shop.id}`);
    await panel.getByRole('button', { name: `Remove ${email}` }).click();
    await expect(confirmDialog(page)).toContainText(`Remove ${email} as a manager of ${shop.name}?`);
    await confirmDialog(page).getByRole('button', { name: 'Remove' }).click();
    await expect(toast(page, 'Manager removed')).toBeVisible();
    await expect(panel.getByText('No one manages this shop yet.')).toBeVisible();

    await manager.getByRole('link', { name: 'Edit shop details' }).click();
    await manager.getByLabel('Contact').fill('+91 22 5555 0199');
    await manager.getByRole('button', { name: 'Save shop details' }).click();
    await expect(manager.getByRole('main').getByRole('alert')).toHaveText(REFUSED);
    // nothing changed for shoppers
    await shopper.goto(`/user/shops/${shop.id}`);
    await expect(shopper.getByText('+91 22 5555 0142')).toBeVisible();

    for (const other of [manager, shopper]) await other.context().close();
    // its offer is no longer among the shoppers' first page of offers (user-offers.spec.ts counts them)
    await apiDelete(page, `/api/shops/${shop.id}`);
  });

  test('sign in from the invite link comes back to it; a used link says so', async ({ page, browser }) => {
    await registerAdmin(page);
    const shop = await createShop(page);
    const { invite } = await apiCreate<{ invite: { code: string } }>(
      page,
      `/api/shops/${shop.id}/manager-invites`,
      {},
    );
    const person = await newVisitor(browser);
    const email = uniqueEmail('member');
    await person.request.post('/api/auth/register', { data: { email, password: PASSWORD, role: 'user' } });
    await person.context().clearCookies();

    await person.goto(`/manage/invite#${invite.code}`);
    await person.getByRole('link', { name: 'Sign in' }).click();
    await expect(person).toHaveURL('/login?next=%2Fmanage%2Finvite');
    await emailField(person).fill(email);
    await passwordField(person).fill(PASSWORD);
    await person.getByRole('button', { name: 'Sign in' }).click();
    await expect(person.getByRole('heading', { name: `Manage ${shop.name}` })).toBeVisible();
    await person.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(person).toHaveURL(`/manage/shops/${shop.id}`);

    // the same link again: spent
    await person.goto(`/manage/invite#${invite.code}`);
    await expect(person.getByRole('alert')).toHaveText(
      'This invitation link is not valid any more: it was used, revoked or has expired. Ask the mall office for a new one.',
    );
    // an unsafe next is ignored: sign-in goes to the dashboard
    await person.context().clearCookies();
    await person.goto('/login?next=//evil.example/x');
    await emailField(person).fill(email);
    await passwordField(person).fill(PASSWORD);
    await person.getByRole('button', { name: 'Sign in' }).click();
    await expect(person).toHaveURL('/user/dashboard');
    await person.context().close();
    await apiDelete(page, `/api/shops/${shop.id}`);
  });
});

// ----- axe (WCAG 2.2 AA) and screenshots of the new screens at 375 and 1280 px -----

/** axe (WCAG 2.2 AA) on the page as it is: the suite's shared check (tests/e2e/support/axe.ts). */
function expectAccessible(page: Page, what: string): Promise<void> {
  return expectNoAxeViolations(page, what);
}

/** A shop with a manager and offers in every standing: live, waiting, sent back, live with a change. */
async function managedShop(admin: Page, manager: Page) {
  const shop = await createShop(admin, { name: uniqueName('Zeta Boutique') });
  await createProduct(admin, shop.id, { name: uniqueName('Zeta Scarf'), price: 1299 });
  await createProduct(admin, shop.id, { name: uniqueName('Zeta Tote'), price: 2499 });
  const { invite } = await apiCreate<{ invite: { code: string } }>(
    admin,
    `/api/shops/${shop.id}/manager-invites`,
    {},
  );
  const email = uniqueEmail('mgr');
  const registered = await manager.request.post('/api/auth/register', {
    data: { email, password: PASSWORD, role: 'user' },
  });
  expect(registered.status()).toBe(201);
  expect(
    (await manager.request.post('/api/manager-invites/accept', { data: { code: invite.code } })).ok(),
  ).toBe(true);
  const offer = (title: string, discount: number) =>
    apiCreate<{ id: string; review: { version: string } }>(manager, '/api/offers', {
      title,
      discount,
      startDate: localDate(0),
      endDate: localDate(20),
      shopId: shop.id,
    });
  const live = await offer('Zeta Weekend Sale', 20);
  const sentBack = await offer('Zeta Buy One Get One', 50);
  await offer('Zeta Festive Week', 30);
  const version = live.review.version;
  expect(
    (await admin.request.post(`/api/offer-reviews/${live.id}/approve`, { data: { version } })).ok(),
  ).toBe(true);
  expect(
    (
      await admin.request.post(`/api/offer-reviews/${sentBack.id}/send-back`, {
        data: {
          comment: 'Please give the end date and which products it covers.',
          version: sentBack.review.version,
        },
      })
    ).ok(),
  ).toBe(true);
  const changed = await manager.request.patch(`/api/offers/${live.id}`, { data: { discount: 25 } });
  expect(changed.ok()).toBe(true);
  // a second invite, open, for the admin's panel
  await apiCreate(admin, `/api/shops/${shop.id}/manager-invites`, {});
  return { shop, email };
}

test('an approval names the terms on screen: a change by the shop meanwhile is refused and shown', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await newVisitor(browser);
  await registerAdmin(admin);
  const manager = await newVisitor(browser);
  const { shop } = await managedShop(admin, manager);
  await admin.goto('/admin/approvals');
  const review = admin.getByRole('listitem', { name: 'Zeta Festive Week' });
  await expect(review.getByText('30%')).toBeVisible();
  // between the admin's look and the click, the manager raises the discount
  const queue = (await (await admin.request.get('/api/offer-reviews')).json()) as {
    items: { id: string; title: string }[];
  };
  const festive = queue.items.find((item) => item.title === 'Zeta Festive Week');
  const raised = await manager.request.patch(`/api/offers/${festive?.id}`, { data: { discount: 90 } });
  expect(raised.ok()).toBe(true);
  await review.getByRole('button', { name: 'Approve Zeta Festive Week' }).click();
  await expect(review.getByRole('alert')).toHaveText(
    'The shop changed this offer after you opened it. Its latest terms are shown now: review them again.',
  );
  // the queue was read again: the card shows what the shop changed it to, and nothing went live
  await expect(review.getByText('90%')).toBeVisible();
  const shopper = await admin.request.get(`/api/offers/${festive?.id}`);
  expect(shopper.status()).toBe(404);
  // approving now approves what is on screen
  await review.getByRole('button', { name: 'Approve Zeta Festive Week' }).click();
  await expect(toast(admin, '"Zeta Festive Week" approved: now live')).toBeVisible();
  expect(
    ((await (await admin.request.get(`/api/offers/${festive?.id}`)).json()) as { discount: number }).discount,
  ).toBe(90);
  // its offers would stay in the shoppers' lists of later tests
  await apiDelete(admin, `/api/shops/${shop.id}`);
  await admin.context().close();
  await manager.context().close();
});

for (const width of [375, 1280]) {
  test(`the new screens pass axe (WCAG 2.2 AA) at ${width} px, with screenshots`, async ({ browser }) => {
    test.setTimeout(120_000);
    const admin = await newVisitor(browser, width);
    await registerAdmin(admin);
    const manager = await newVisitor(browser, width);
    const { shop } = await managedShop(admin, manager);
    // docs/screenshots are written only when asked (E2E_SCREENSHOTS=1), so a test run leaves the tree clean
    const shot = async (page: Page, name: string) => {
      if (!process.env.E2E_SCREENSHOTS) return;
      // from the top: a page scrolled by the last click would show its sticky bar mid-page
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: `docs/screenshots/${name}-${width}.png`, fullPage: true });
    };

    await manager.goto('/manage');
    await expect(manager.getByRole('heading', { name: 'My shops', level: 1 })).toBeVisible();
    await expect(
      manager.getByRole('article', { name: shop.name }).getByText('2 offers waiting for approval'),
    ).toBeVisible();
    await expectAccessible(manager, 'My shops');
    await shot(manager, 'manager-my-shops');

    await manager.goto(`/manage/shops/${shop.id}`);
    await expect(
      manager
        .getByRole('listitem', { name: 'Zeta Buy One Get One' })
        .getByText('The mall office says: “Please give the end date and which products it covers.”'),
    ).toBeVisible();
    await expect(manager.getByText('Change waiting for approval')).toBeVisible();
    await expect(
      manager.getByRole('region', { name: 'Recent history' }).getByText('Sent back offer'),
    ).toBeVisible();
    await expectAccessible(manager, "the manager's shop page");
    await shot(manager, 'manager-shop');

    await manager.getByRole('link', { name: 'Edit Zeta Weekend Sale' }).click();
    await expect(manager.getByLabel('Discount (%)')).toHaveValue('25');
    await expectAccessible(manager, "the manager's offer form");
    await shot(manager, 'manager-offer-form');

    await manager.goto(`/manage/shops/${shop.id}/edit`);
    await expect(manager.getByLabel('Contact')).toBeVisible();
    await expectAccessible(manager, "the manager's shop form");

    // the invite page, to a visitor and to a signed-in user
    const { invite } = await apiCreate<{ invite: { code: string } }>(
      admin,
      `/api/shops/${shop.id}/manager-invites`,
      {},
    );
    const visitor = await newVisitor(browser, width);
    await visitor.goto(`/manage/invite#${invite.code}`);
    await expect(visitor.getByRole('link', { name: 'Create an account' })).toBeVisible();
    await expectAccessible(visitor, 'the invite page (visitor)');
    await shot(visitor, 'manager-invite');
    await visitor.request.post('/api/auth/register', {
      data: { email: uniqueEmail('invitee'), password: PASSWORD, role: 'user' },
    });
    await visitor.reload();
    await expect(visitor.getByRole('button', { name: 'Accept invitation' })).toBeVisible();
    await expectAccessible(visitor, 'the invite page (signed in)');
    await shot(visitor, 'manager-invite-accept');

    await admin.goto('/admin/approvals');
    await expect(admin.getByRole('listitem', { name: 'Zeta Festive Week' }).first()).toBeVisible();
    await expectAccessible(admin, 'Approvals');
    await admin
      .getByRole('listitem', { name: 'Zeta Weekend Sale' })
      .first()
      .getByRole('button', { name: /^Send back/ })
      .click();
    await expect(
      admin.getByLabel("What should change? (the shop's manager sees this)").first(),
    ).toBeVisible();
    await expectAccessible(admin, 'Approvals with the send-back form open');
    await shot(admin, 'approvals');

    await admin.goto(`/admin/shops/${shop.id}`);
    await expect(admin.getByRole('list', { name: 'Managers' })).toBeVisible();
    await admin.getByRole('button', { name: 'Invite a manager' }).click();
    await expect(admin.getByLabel(`Invite link for a manager of ${shop.name}`)).toBeVisible();
    await expectAccessible(admin, 'the admin shop form with its managers panel');
    await shot(admin, 'manager-admin-panel');

    for (const other of [manager, visitor]) await other.context().close();
    await apiDelete(admin, `/api/shops/${shop.id}`);
    await admin.context().close();
  });
}
