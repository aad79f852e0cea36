// Events (issue 35), through the screens: a shop's manager submits an event, which no visitor sees until
// an admin approves it in the Approvals queue; then the public events page, the event's own page and the
// calendar feed show it. At a phone's and a desktop's width, axe-clean, with no sideways scrolling.
import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  apiCreate,
  createShop,
  localDate,
  registerAdmin,
  registerUser,
  scrollWidth,
  toast,
  uniqueName,
} from './fixtures';
import { expectNoAxeViolations } from './support/axe';

async function newVisitor(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    viewport: { width, height: 800 },
  });
  return context.newPage();
}

for (const width of [375, 1280] as const) {
  test(`a manager submits an event, an admin approves it, the events page and the feed show it (${width} px)`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    // ----- the mall office: a shop, and its manager (invited and accepted through the API)
    const admin = await newVisitor(browser, width);
    await registerAdmin(admin);
    const shop = await createShop(admin);
    const { invite } = await apiCreate<{ invite: { code: string } }>(
      admin,
      `/api/shops/${shop.id}/manager-invites`,
      {},
    );
    const manager = await newVisitor(browser, width);
    await registerUser(manager);
    const accepted = await manager.request.post('/api/manager-invites/accept', {
      data: { code: invite.code },
    });
    expect(accepted.status()).toBe(200);

    // ----- the manager submits an event from their shop's page
    await manager.goto(`/manage/shops/${shop.id}`);
    await manager.getByRole('link', { name: 'Add event' }).click();
    await expect(manager.getByRole('heading', { name: 'Add New Event' })).toBeVisible();
    const title = uniqueName('Zeta Book Signing');
    await manager.getByLabel('Title', { exact: true }).fill(title);
    await manager.getByLabel('Description', { exact: true }).fill('Meet the author.');
    await manager.getByLabel('Start date', { exact: true }).fill(localDate(1));
    await manager.getByLabel('End date', { exact: true }).fill(localDate(1));
    await manager.getByLabel('Tags', { exact: true }).fill('books, signing');
    expect(await scrollWidth(manager)).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(manager);
    await manager.getByRole('button', { name: 'Send for approval' }).click();
    await expect(toast(manager, 'Event sent for approval')).toBeVisible();
    await expect(manager.getByText('Waiting for approval')).toBeVisible();

    // ----- My shops counts it beside the offers, and links to the shop's events
    await manager.goto('/manage');
    const card = manager.getByRole('article', { name: shop.name });
    await expect(card.getByText('1 event waiting for approval')).toBeVisible();
    await expectNoAxeViolations(manager);
    await card.getByRole('link', { name: `See the events of ${shop.name}` }).click();
    await expect(manager).toHaveURL(`/manage/shops/${shop.id}#events`);
    await expect(
      manager.getByRole('region', { name: 'Events' }).getByRole('heading', { name: title }),
    ).toBeInViewport();

    // ----- a visitor does not see it yet
    const visitor = await newVisitor(browser, width);
    await visitor.goto('/events?tag=signing');
    await expect(visitor.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
    await expect(visitor.getByText(title)).toHaveCount(0);

    // ----- the admin approves it in the Approvals queue (a manager has no such screen)
    await admin.goto('/admin/approvals');
    const waiting = admin.getByRole('list', { name: 'Events to approve' });
    await expect(waiting.getByRole('heading', { name: title })).toBeVisible();
    await expectNoAxeViolations(admin);
    await waiting.getByRole('button', { name: `Approve ${title}` }).click();
    await expect(toast(admin, `"${title}" approved: now live`)).toBeVisible();

    // ----- now public: the events page, the event's page (Add to calendar), the feed
    await visitor.goto('/events?tag=signing');
    const link = visitor.getByRole('link', { name: title });
    await expect(link).toBeVisible();
    expect(await scrollWidth(visitor)).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(visitor);
    await link.click();
    await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(visitor.getByRole('link', { name: 'Add to calendar' })).toBeVisible();
    await expect(visitor.getByRole('link', { name: shop.name, exact: true })).toBeVisible();
    expect(await scrollWidth(visitor)).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(visitor);
    const feed = await visitor.request.get('/api/events/calendar.ics?tag=signing');
    expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    const body = await feed.text();
    expect(body).toContain('BEGIN:VCALENDAR');
    expect(body.replace(/\r\n /g, '')).toContain(`SUMMARY:${title}`);

    await Promise.all([admin, manager, visitor].map((page) => page.context().close()));
  });
}
