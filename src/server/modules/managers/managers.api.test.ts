// Shop managers and offer approval (issue 14, docs/decisions/015), on both databases: the invite link
// (once, even when 20 requests race for it), what a manager may and may not change, offers that wait for
// an admin while shoppers see only approved terms, removal taking effect on the next request, and the
// history a manager sees. Every refusal leaves the data as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPage } from '../../../shared/audit';
import { everyDay } from '../../../shared/hours';
import {
  DIRECTORY_FIELDS_REFUSED,
  MANAGER_INVITE_MESSAGES,
  type ManagedShops,
  NOT_YOUR_SHOP,
  type ShopManagers,
} from '../../../shared/managers';
import type { Offer, ReviewedOffer } from '../../../shared/offer';
import type { Product } from '../../../shared/product';
import type { ShopDetail } from '../../../shared/shop';
import { type Directory, expectError, openDirectory, uniqueName } from '../../test/catalog-fixtures';
import { createTestApp, registerAs, type SignedIn, type TestApp } from '../../test/harness';
import { CHANGED_SINCE_REVIEW } from '../offers/repository';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

const accept = (as: SignedIn, code: string) => d.call(as, 'POST', '/api/manager-invites/accept', { code });

async function auditOf(entityId: string): Promise<AuditEntry[]> {
  const response = await d.call(d.admin, 'GET', `/api/audit?entityId=${entityId}&pageSize=100`);
  return (response.json() as AuditPage).items;
}

describe('manager invites', () => {
  it('a user accepts a link once: the session names the shop, the admin sees the manager', async () => {
    const shop = await d.shop();
    const person = await registerAs(t.app, 'user');
    const code = await d.managerInvite(shop.id);

    const preview = await d.call(person, 'POST', '/api/manager-invites/preview', { code });
    expect(preview.json()).toEqual({ shopId: shop.id, shopName: shop.name });
    const accepted = await accept(person, code);
    expect(accepted.statusCode, accepted.body).toBe(200);

    const me = await d.call(person, 'GET', '/api/auth/me');
    expect(me.json().user.managedShopIds).toEqual([shop.id]);
    expect(me.json().user.role).toBe('user');
    const list = (await d.call(d.admin, 'GET', `/api/shops/${shop.id}/managers`)).json() as ShopManagers;
    expect(list.managers.map((m) => m.email)).toEqual([person.user.email]);
    expect(list.invites).toEqual([]);

    // Used: refused to anyone else, and to the same person again.
    const other = await registerAs(t.app, 'user');
    expectError(await accept(other, code), 403, 'INVITE_INVALID', MANAGER_INVITE_MESSAGES.invalid);
    expect((await d.call(other, 'GET', '/api/auth/me')).json().user.managedShopIds).toEqual([]);
  });

  it('20 requests racing with one code: one membership, one use', async () => {
    const shop = await d.shop();
    const code = await d.managerInvite(shop.id);
    const people: SignedIn[] = [];
    // One at a time: sign-ups share the password-hashing queue, which turns a crowd away.
    for (let i = 0; i < 20; i++) people.push(await registerAs(t.app, 'user'));
    const answers = await Promise.all(people.map((person) => accept(person, code)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 403)).toHaveLength(19);
    const { rows } = await t.database.pool.query('select * from shop_managers where shop_id = $1', [shop.id]);
    expect(rows).toHaveLength(1);
  });

  it('20 racing requests of the same person: one membership', async () => {
    const shop = await d.shop();
    const code = await d.managerInvite(shop.id);
    const person = await registerAs(t.app, 'user');
    const answers = await Promise.all(Array.from({ length: 20 }, () => accept(person, code)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    const { rows } = await t.database.pool.query('select * from shop_managers where shop_id = $1', [shop.id]);
    expect(rows).toHaveLength(1);
  });

  it('a revoked or expired link is refused; an admin or an existing manager does not spend it', async () => {
    const shop = await d.shop();
    const person = await registerAs(t.app, 'user');

    const revokedCode = await d.managerInvite(shop.id);
    const open = (await d.call(d.admin, 'GET', `/api/shops/${shop.id}/managers`)).json() as ShopManagers;
    expect(open.invites).toHaveLength(1);
    expect(JSON.stringify(open)).not.toContain(revokedCode);
    const invite = open.invites[0];
    if (!invite) throw new Error('no invite listed');
    expect(revokedCode.endsWith(invite.codeHint)).toBe(true);
    const revoke = await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}/manager-invites/${invite.id}`);
    expect(revoke.statusCode).toBe(204);
    expectError(await accept(person, revokedCode), 403, 'INVITE_INVALID', MANAGER_INVITE_MESSAGES.invalid);

    const adminCode = await d.managerInvite(shop.id);
    expectError(await accept(d.admin, adminCode), 409, 'ADMIN', MANAGER_INVITE_MESSAGES.admin);
    // Still open for the person it was meant for.
    expect((await accept(person, adminCode)).statusCode).toBe(200);
    const again = await d.managerInvite(shop.id);
    expectError(await accept(person, again), 409, 'ALREADY', MANAGER_INVITE_MESSAGES.already);
    const other = await registerAs(t.app, 'user');
    expect((await accept(other, again)).statusCode).toBe(200);

    // A week old (the app's clock is not moved: every session here would idle out with it).
    const late = await d.managerInvite(shop.id);
    await t.database.pool.query(
      "update manager_invites set expires_at = $1::timestamptz - interval '1 second' where shop_id = $2 and used_at is null",
      [t.now().toISOString(), shop.id],
    );
    const third = await registerAs(t.app, 'user');
    expectError(await accept(third, late), 403, 'INVITE_INVALID', MANAGER_INVITE_MESSAGES.invalid);
  });

  it('refuses codes that are not a code, with the link message', async () => {
    const person = await registerAs(t.app, 'user');
    for (const code of ['', ' ', 'x'.repeat(65), 'abc def', 'ab"c', '../../etc', 42, null]) {
      const answer = await accept(person, code as string);
      expect(answer.statusCode, JSON.stringify(code)).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode).toBeLessThan(500);
    }
  });
});

describe('what a manager may change', () => {
  let shop: ShopDetail;
  let otherShop: ShopDetail;
  let manager: SignedIn;
  beforeAll(async () => {
    shop = await d.shop({ contact: 'old contact' });
    otherShop = await d.shop();
    manager = await d.manager(shop.id);
  });

  it("edits their shop's page, not its name, category or floor, nor another shop", async () => {
    const edited = await d.call(manager, 'PATCH', `/api/shops/${shop.id}`, {
      contact: '+91 98765 43210',
      description: 'Fresh every day',
      openingHours: '10:00 - 21:00',
      hours: everyDay('10:00', '21:00'),
      location: 'Unit 12',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // The structured hours too (docs/decisions/017): shoppers' "Open now" reads them.
    expect((edited.json() as ShopDetail).hours?.weekly.mon).toEqual([{ open: '10:00', close: '21:00' }]);
    expect((await d.call(d.user, 'GET', `/api/shops/${shop.id}`)).json().contact).toBe('+91 98765 43210');

    const before = await d.row('shops', shop.id);
    for (const patch of [
      { name: 'Renamed by the tenant' },
      { categoryId: (await d.category()).id },
      { floorId: (await d.floor()).id },
      { contact: 'x', name: shop.name },
    ]) {
      const answer = await d.call(manager, 'PATCH', `/api/shops/${shop.id}`, patch);
      expectError(answer, 403, 'FORBIDDEN', DIRECTORY_FIELDS_REFUSED);
    }
    expect(await d.row('shops', shop.id)).toEqual(before);

    const otherBefore = await d.row('shops', otherShop.id);
    expect((await d.call(manager, 'PATCH', `/api/shops/${otherShop.id}`, { contact: 'x' })).statusCode).toBe(
      403,
    );
    expect((await d.call(manager, 'DELETE', `/api/shops/${shop.id}`)).statusCode).toBe(403);
    expect((await d.call(manager, 'POST', '/api/shops', { name: uniqueName('Shop') })).statusCode).toBe(403);
    expect(await d.row('shops', otherShop.id)).toEqual(otherBefore);
  });

  it("creates, edits and deletes their shop's products only", async () => {
    const created = await d.call(manager, 'POST', '/api/products', {
      name: uniqueName('Kettle'),
      price: 1299.5,
      shopId: shop.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json() as Product;
    const priced = await d.call(manager, 'PATCH', `/api/products/${product.id}`, { price: 999 });
    expect(priced.json().price).toBe('999.00');

    // Not into another shop, not another shop's product.
    expect(
      (await d.call(manager, 'POST', '/api/products', { name: 'x', price: 1, shopId: otherShop.id }))
        .statusCode,
    ).toBe(403);
    expect(
      (await d.call(manager, 'PATCH', `/api/products/${product.id}`, { shopId: otherShop.id })).statusCode,
    ).toBe(403);
    const theirs = await d.product({ shopId: otherShop.id });
    expect((await d.call(manager, 'PATCH', `/api/products/${theirs.id}`, { price: 1 })).statusCode).toBe(403);
    expect((await d.call(manager, 'DELETE', `/api/products/${theirs.id}`)).statusCode).toBe(403);
    expect((await d.row('products', theirs.id))?.price).toBe('10.00');
    expect((await d.row('products', product.id))?.shop_id).toBe(shop.id);

    expect((await d.call(manager, 'DELETE', `/api/products/${product.id}`)).statusCode).toBe(204);
    expect(await d.row('products', product.id)).toBeUndefined();
  });

  it('is refused categories, floors, invites, stats, the Activity log and approvals', async () => {
    for (const [method, url] of [
      ['POST', '/api/categories'],
      ['POST', '/api/floors'],
      ['GET', '/api/admin/invites'],
      ['GET', '/api/stats'],
      ['GET', '/api/audit'],
      ['GET', '/api/offer-reviews'],
      ['GET', `/api/shops/${shop.id}/managers`],
      ['POST', `/api/shops/${shop.id}/manager-invites`],
    ] as const) {
      const answer = await d.call(
        manager,
        method,
        url,
        method === 'POST' ? { name: uniqueName('X') } : undefined,
      );
      expect(answer.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("sees their own shop's history only", async () => {
    const own = (await d.call(manager, 'GET', `/api/manage/shops/${shop.id}/activity`)).json() as AuditPage;
    expect(own.items.length).toBeGreaterThan(0);
    expect(own.items.some((entry) => entry.entityId === shop.id && entry.action === 'update')).toBe(true);
    expect(own.items.every((entry) => entry.entityName !== otherShop.name)).toBe(true);
    expect((await d.call(manager, 'GET', `/api/manage/shops/${otherShop.id}/activity`)).statusCode).toBe(403);
    expect((await d.call(manager, 'GET', `/api/manage/shops/${otherShop.id}/offers`)).statusCode).toBe(403);
    const mine = (await d.call(manager, 'GET', '/api/manage/shops')).json() as ManagedShops;
    expect(mine.shops.map((s) => s.id)).toEqual([shop.id]);
  });
});

describe('offers wait for approval', () => {
  let shop: ShopDetail;
  let manager: SignedIn;
  beforeAll(async () => {
    shop = await d.shop();
    manager = await d.manager(shop.id);
  });

  const shopperOffers = async () =>
    ((await d.call(d.user, 'GET', `/api/offers?shopId=${shop.id}`)).json() as { items: Offer[] }).items;
  const managed = async () =>
    (
      (await d.call(manager, 'GET', `/api/manage/shops/${shop.id}/offers`)).json() as {
        items: ReviewedOffer[];
      }
    ).items;

  it("a manager's new offer is pending, unseen by shoppers, until an admin approves it", async () => {
    const title = uniqueName('Monsoon sale');
    const created = await d.call(manager, 'POST', '/api/offers', {
      title,
      discount: 20,
      startDate: d.today(),
      endDate: d.day(10),
      shopId: shop.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const offer = created.json() as ReviewedOffer;
    expect(offer.approved).toBe(false);
    expect(offer.review?.state).toBe('pending');
    expect(offer.review?.submittedBy).toBe(manager.user.email);

    // Nowhere for shoppers: the list, the offer itself, a product that uses it, the dashboard counts.
    expect((await shopperOffers()).map((o) => o.id)).not.toContain(offer.id);
    expect((await d.call(d.user, 'GET', `/api/offers/${offer.id}`)).statusCode).toBe(404);
    const product = await d.call(manager, 'POST', '/api/products', {
      name: uniqueName('Umbrella'),
      price: 500,
      shopId: shop.id,
      offerId: offer.id,
    });
    expect(product.statusCode, product.body).toBe(201);
    const seen = (await d.call(d.user, 'GET', `/api/products/${product.json().id}`)).json() as Product;
    expect(seen.offer).toBeNull();
    expect(seen.offerPrice).toBeNull();
    const onOffer = await d.call(d.user, 'GET', `/api/products?shopId=${shop.id}&onOffer=true`);
    expect(onOffer.json().items).toEqual([]);

    const queue = (await d.call(d.admin, 'GET', '/api/offer-reviews')).json() as { items: ReviewedOffer[] };
    const waiting = queue.items.find((item) => item.id === offer.id);
    expect(waiting?.shopName).toBe(shop.name);
    expect(waiting?.review?.submittedBy).toBe(manager.user.email);

    // The Activity screen learns it waits (its link goes to the approvals screen, not the offer form).
    expect((await auditOf(offer.id)).map((e) => e.entityReview)).toEqual(['pending']);

    const approved = await d.call(d.admin, 'POST', `/api/offer-reviews/${offer.id}/approve`, {
      version: waiting?.review?.version,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await auditOf(offer.id)).every((e) => e.entityReview === null)).toBe(true);
    expect((await shopperOffers()).map((o) => o.title)).toContain(title);
    const now = (await d.call(d.user, 'GET', `/api/products/${product.json().id}`)).json() as Product;
    expect(now.offer?.title).toBe(title);
    expect(now.offerPrice).toBe('400.00');
    // Decided: not again.
    const again = { version: waiting?.review?.version };
    expect((await d.call(d.admin, 'POST', `/api/offer-reviews/${offer.id}/approve`, again)).statusCode).toBe(
      409,
    );

    const entries = await auditOf(offer.id);
    expect(entries.map((e) => [e.action, e.actorEmail])).toEqual([
      ['approve', d.admin.user.email],
      ['create', manager.user.email],
    ]);
  });

  it('a change to an approved offer waits while the approved terms stay live; send back, fix, approve', async () => {
    const live = await d.offer({ shopId: shop.id, title: uniqueName('Live'), discount: 10 });
    const changed = await d.call(manager, 'PATCH', `/api/offers/${live.id}`, { discount: 50 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((changed.json() as ReviewedOffer).review?.proposal).toEqual({ discount: 50 });
    const shopperSees = async () => (await shopperOffers()).find((o) => o.id === live.id) as Offer;
    expect((await shopperSees()).discount).toBe(10);
    // The offer itself, as a shopper reads it: the live terms, and nothing of what waits.
    const read = (await d.call(d.user, 'GET', `/api/offers/${live.id}`)).json();
    expect(read.discount).toBe(10);
    expect(Object.keys(read)).not.toContain('review');
    expect(Object.keys(read)).not.toContain('approved');

    const sendBack = await d.call(d.admin, 'POST', `/api/offer-reviews/${live.id}/send-back`, {
      comment: 'At most 30% this month, please',
      version: (changed.json() as ReviewedOffer).review?.version,
    });
    expect(sendBack.statusCode, sendBack.body).toBe(200);
    const mine = (await managed()).find((o) => o.id === live.id);
    expect(mine?.review).toMatchObject({ state: 'sent_back', comment: 'At most 30% this month, please' });
    expect(
      (await d.call(d.admin, 'GET', '/api/offer-reviews')).json().items.map((o: Offer) => o.id),
    ).not.toContain(live.id);

    const fixed = await d.call(manager, 'PATCH', `/api/offers/${live.id}`, { discount: 30 });
    expect((await managed()).find((o) => o.id === live.id)?.review).toMatchObject({
      state: 'pending',
      comment: null,
      proposal: { discount: 30 },
    });
    expect((await shopperSees()).discount).toBe(10);
    const version = (fixed.json() as ReviewedOffer).review?.version;
    await d.call(d.admin, 'POST', `/api/offer-reviews/${live.id}/approve`, { version });
    expect((await shopperSees()).discount).toBe(30);
    expect((await managed()).find((o) => o.id === live.id)?.review).toBeNull();

    expect((await auditOf(live.id)).map((e) => e.action)).toEqual([
      'approve',
      'submit',
      'send_back',
      'submit',
      'create',
    ]);
  });

  it('a manager changing back to the live terms withdraws the proposal; dates are checked against the live ones', async () => {
    const live = await d.offer({ shopId: shop.id, discount: 15 });
    await d.call(manager, 'PATCH', `/api/offers/${live.id}`, { discount: 25 });
    const back = await d.call(manager, 'PATCH', `/api/offers/${live.id}`, { discount: 15 });
    expect((back.json() as ReviewedOffer).review).toBeNull();
    const badDates = await d.call(manager, 'PATCH', `/api/offers/${live.id}`, { endDate: d.day(-40) });
    expect(badDates.statusCode).toBe(400);
    expect((await d.row('offers', live.id))?.review_state).toBeNull();
  });

  it('a manager cannot delete an offer, move it, or touch another shop’s', async () => {
    const live = await d.offer({ shopId: shop.id });
    const other = await d.offer();
    expect((await d.call(manager, 'DELETE', `/api/offers/${live.id}`)).statusCode).toBe(403);
    expect(
      (await d.call(manager, 'PATCH', `/api/offers/${live.id}`, { shopId: other.shopId })).statusCode,
    ).toBe(403);
    expect((await d.call(manager, 'PATCH', `/api/offers/${other.id}`, { discount: 99 })).statusCode).toBe(
      403,
    );
    expect(
      (
        await d.call(manager, 'POST', '/api/offers', {
          title: 'x',
          discount: 5,
          startDate: d.today(),
          endDate: d.today(),
          shopId: other.shopId,
        })
      ).statusCode,
    ).toBe(403);
    expect((await d.row('offers', other.id))?.discount).toBe(10);
  });

  it("an admin's offers are live at once", async () => {
    const offer = await d.offer({ shopId: shop.id });
    expect((await shopperOffers()).map((o) => o.id)).toContain(offer.id);
    expect((await d.row('offers', offer.id))?.approved).toBe(true);
  });
});

// "My shops" counts what waits for the mall office and what came back: offers and events (issue 35).
describe("a manager's shops count their offers and events under review", () => {
  it('counts per shop, each kind apart, and follows approvals and send-backs', async () => {
    const shop = await d.shop();
    const other = await d.shop();
    const manager = await d.manager(shop.id);
    const otherManager = await d.manager(other.id);
    const counts = async (as: SignedIn, shopId: string) => {
      const answer = await d.call(as, 'GET', '/api/manage/shops');
      expect(answer.statusCode, answer.body).toBe(200);
      const found = (answer.json() as ManagedShops).shops.find((s) => s.id === shopId);
      const { pendingOffers, sentBackOffers, pendingEvents, sentBackEvents } = found ?? {};
      return { pendingOffers, sentBackOffers, pendingEvents, sentBackEvents };
    };
    const none = { pendingOffers: 0, sentBackOffers: 0, pendingEvents: 0, sentBackEvents: 0 };
    expect(await counts(manager, shop.id)).toEqual(none);

    const submitted = async (url: string, payload: Record<string, unknown>) => {
      const answer = await d.call(manager, 'POST', url, payload);
      expect(answer.statusCode, answer.body).toBe(201);
      return answer.json() as { id: string; review: { version: string } };
    };
    const offerTerms = () => ({
      title: uniqueName('Offer'),
      discount: 10,
      startDate: d.today(),
      endDate: d.day(5),
      shopId: shop.id,
    });
    const first = await submitted('/api/offers', offerTerms());
    await submitted('/api/offers', offerTerms());
    const event = await submitted('/api/events', {
      title: uniqueName('Signing'),
      shopId: shop.id,
      placeKind: 'shop',
      placeId: shop.id,
      allDay: false,
      startDate: d.day(2),
      startTime: '17:00',
      endDate: d.day(2),
      endTime: '19:00',
    });
    // An admin's event of the shop is live at once: nothing to count.
    const live = await d.call(d.admin, 'POST', '/api/events', {
      title: uniqueName('Market'),
      shopId: shop.id,
      placeKind: 'mall',
      allDay: true,
      startDate: d.day(3),
      endDate: d.day(3),
    });
    expect(live.statusCode, live.body).toBe(201);
    expect(await counts(manager, shop.id)).toEqual({ ...none, pendingOffers: 2, pendingEvents: 1 });
    // Another shop's manager sees their own shop's counts only.
    expect(await counts(otherManager, other.id)).toEqual(none);
    expect(await counts(otherManager, shop.id)).toEqual({});

    const sentBack = await d.call(d.admin, 'POST', `/api/event-reviews/${event.id}/send-back`, {
      comment: 'Which author?',
      version: event.review.version,
    });
    expect(sentBack.statusCode, sentBack.body).toBe(200);
    const approved = await d.call(d.admin, 'POST', `/api/offer-reviews/${first.id}/approve`, {
      version: first.review.version,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await counts(manager, shop.id)).toEqual({
      ...none,
      pendingOffers: 1,
      sentBackEvents: 1,
    });
  });
});

// Issue 31: an approval went live with terms the manager switched between the admin's look and click.
describe('a decision acts on exactly the version the admin saw', () => {
  let shop: ShopDetail;
  let manager: SignedIn;
  beforeAll(async () => {
    shop = await d.shop();
    manager = await d.manager(shop.id);
  });

  /** One offer as a shopper reads it; null when shoppers cannot see it. */
  const shopperOffer = async (id: string): Promise<Offer | null> => {
    const response = await d.call(d.user, 'GET', `/api/offers/${id}`);
    return response.statusCode === 404 ? null : (response.json() as Offer);
  };

  it('a decision names the version the admin saw: a change in between is refused, nothing unseen goes live', async () => {
    // A new offer: the admin saw 10 %, the manager switched to 90 % and a far end date before the click.
    const created = await d.call(manager, 'POST', '/api/offers', {
      title: uniqueName('Seen'),
      discount: 10,
      startDate: d.today(),
      endDate: d.day(5),
      shopId: shop.id,
    });
    const seen = (created.json() as ReviewedOffer).review?.version;
    const queued = (await d.call(d.admin, 'GET', '/api/offer-reviews')).json().items as ReviewedOffer[];
    expect(queued.find((o) => o.id === created.json().id)?.review?.version).toBe(seen);
    const id = created.json().id as string;
    await d.call(manager, 'PATCH', `/api/offers/${id}`, { discount: 90, endDate: d.day(300) });
    const approve = (version: unknown) =>
      d.call(d.admin, 'POST', `/api/offer-reviews/${id}/approve`, { version });
    expectError(await approve(seen), 409, 'CHANGED', CHANGED_SINCE_REVIEW);
    const sendBack = (version: unknown) =>
      d.call(d.admin, 'POST', `/api/offer-reviews/${id}/send-back`, { comment: 'No', version });
    expectError(await sendBack(seen), 409, 'CHANGED', CHANGED_SINCE_REVIEW);
    // a decision must name a version: without one it is a bad request, and nothing changes
    expect((await d.call(d.admin, 'POST', `/api/offer-reviews/${id}/approve`)).statusCode).toBe(400);
    expect((await approve('')).statusCode).toBe(400);
    expect((await d.row('offers', id))?.approved).toBe(false);
    expect((await d.row('offers', id))?.review_state).toBe('pending');
    expect(await shopperOffer(id)).toBeNull();
    // The queue read again shows 90 %: approving that version is what the admin now saw.
    const latest = (await d.call(d.admin, 'GET', '/api/offer-reviews')).json().items as ReviewedOffer[];
    const now = latest.find((o) => o.id === id);
    expect(now?.discount).toBe(90);
    expect((await approve(now?.review?.version)).statusCode).toBe(200);
    expect((await shopperOffer(id))?.discount).toBe(90);

    // A proposal on a live offer: the admin saw 99 %, the manager switched to 100 % and ten years.
    const live = await d.offer({ shopId: shop.id, discount: 20 });
    const proposed = await d.call(manager, 'PATCH', `/api/offers/${live.id}`, { discount: 99 });
    const saw = (proposed.json() as ReviewedOffer).review?.version;
    await d.call(manager, 'PATCH', `/api/offers/${live.id}`, {
      discount: 100,
      startDate: d.day(-300),
      endDate: d.day(3000),
    });
    const refused = await d.call(d.admin, 'POST', `/api/offer-reviews/${live.id}/approve`, { version: saw });
    expectError(refused, 409, 'CHANGED', CHANGED_SINCE_REVIEW);
    expect((await shopperOffer(live.id))?.discount).toBe(20);
    // Changed back to exactly what the admin saw: the version is the terms, so the approval holds.
    await d.call(manager, 'PATCH', `/api/offers/${live.id}`, {
      discount: 99,
      startDate: live.startDate,
      endDate: live.endDate,
    });
    const same = await d.call(d.admin, 'POST', `/api/offer-reviews/${live.id}/approve`, { version: saw });
    expect(same.statusCode, same.body).toBe(200);
    expect((await shopperOffer(live.id))?.discount).toBe(99);
  });

  it("the counts shoppers see count approved offers only: a shop's offerCount and the dashboard's offers", async () => {
    const own = await d.shop();
    const owner = await d.manager(own.id);
    await d.offer({ shopId: own.id });
    await d.offer({ shopId: own.id });
    const counts = async () => ({
      shop: ((await d.call(d.user, 'GET', `/api/shops/${own.id}`)).json() as ShopDetail).offerCount,
      listed: (await d.call(d.user, 'GET', `/api/offers?shopId=${own.id}`)).json().total as number,
      stats: (await d.call(d.admin, 'GET', '/api/stats')).json().offers as number,
      adminList: (await d.call(d.admin, 'GET', '/api/offers?pageSize=1')).json().total as number,
    });
    const before = await counts();
    expect(before.shop).toBe(2);
    expect(before.listed).toBe(2);
    expect(before.stats).toBe(before.adminList);
    const pending = await d.call(owner, 'POST', '/api/offers', {
      title: uniqueName('Waiting'),
      discount: 15,
      startDate: d.today(),
      endDate: d.day(3),
      shopId: own.id,
    });
    expect(pending.statusCode, pending.body).toBe(201);
    // a pending offer: no count a shopper (or the Offers list) sees moves
    expect(await counts()).toEqual(before);
    const version = (pending.json() as ReviewedOffer).review?.version;
    await d.call(d.admin, 'POST', `/api/offer-reviews/${pending.json().id}/approve`, { version });
    const after = await counts();
    expect(after.shop).toBe(3);
    expect(after.listed).toBe(3);
    expect(after.stats).toBe(before.stats + 1);
    expect(after.stats).toBe(after.adminList);
  });

  it('races of a manager’s edit and an admin’s decision, in 40 interleavings, never put unseen terms live', async () => {
    const ticks = (n: number) =>
      new Promise<void>((resolve) => {
        const step = (left: number) => (left === 0 ? resolve() : setImmediate(() => step(left - 1)));
        step(n);
      });
    const outcomes = new Set<string>();
    for (let round = 0; round < 40; round++) {
      // even rounds: a new offer; odd rounds: a proposal on a live one. Every fourth: a send-back.
      const proposal = round % 2 === 1;
      const live = proposal ? await d.offer({ shopId: shop.id, discount: 5 }) : null;
      const submitted = live
        ? await d.call(manager, 'PATCH', `/api/offers/${live.id}`, { discount: 30 })
        : await d.call(manager, 'POST', '/api/offers', {
            title: uniqueName('Race'),
            discount: 30,
            startDate: d.today(),
            endDate: d.day(5),
            shopId: shop.id,
          });
      const offer = submitted.json() as ReviewedOffer;
      const version = offer.review?.version;
      const sendBack = round % 4 >= 2;
      // the manager's switch and the admin's click, the one behind the other by 0–7 turns of the loop
      const lead = round % 8;
      const [edit, decision] = await Promise.all([
        ticks(round % 3 === 0 ? lead : 0).then(() =>
          d.call(manager, 'PATCH', `/api/offers/${offer.id}`, { discount: 95, endDate: d.day(400) }),
        ),
        ticks(round % 3 === 0 ? 0 : lead).then(() =>
          d.call(
            d.admin,
            'POST',
            `/api/offer-reviews/${offer.id}/${sendBack ? 'send-back' : 'approve'}`,
            sendBack ? { comment: 'Not yet', version } : { version },
          ),
        ),
      ]);
      expect(edit.statusCode, edit.body).toBe(200);
      expect([200, 409], decision.body).toContain(decision.statusCode);
      outcomes.add(`${sendBack ? 'send-back' : 'approve'} ${decision.statusCode}`);
      const row = await d.row('offers', offer.id);
      const shown = await shopperOffer(offer.id);
      if (decision.statusCode === 409) {
        // the edit came first: refused, and the live terms are as before the race
        expectError(decision, 409, 'CHANGED', CHANGED_SINCE_REVIEW);
        expect(shown?.discount).toBe(live ? 5 : undefined);
        expect(row?.review_state).toBe('pending');
      } else if (sendBack) {
        // sent back first: the manager's edit is a new submission, waiting; nothing new is live
        expect(shown?.discount).toBe(live ? 5 : undefined);
        expect(row?.review_state).toBe('pending');
      } else {
        // approved first: what the admin saw is live, and the later edit waits as a proposal
        expect(shown?.discount).toBe(30);
        expect(shown?.endDate).toBe(live ? live.endDate : d.day(5));
        expect(row?.review_state).toBe('pending');
        expect(row?.proposal).toMatchObject({ discount: 95 });
      }
    }
    // both orders happened (else the test proved one interleaving only)
    expect(outcomes).toContain('approve 409');
    expect(outcomes).toContain('approve 200');
  });
});

describe('removing a manager', () => {
  it('takes effect on the very next request with the same session', async () => {
    const shop = await d.shop();
    const manager = await d.manager(shop.id);
    expect((await d.call(manager, 'PATCH', `/api/shops/${shop.id}`, { contact: 'a' })).statusCode).toBe(200);
    const removed = await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}/managers/${manager.user.id}`);
    expect(removed.statusCode).toBe(204);
    const refused = await d.call(manager, 'PATCH', `/api/shops/${shop.id}`, { contact: 'b' });
    // Says why: the save is refused because they are no longer one of its managers.
    expectError(refused, 403, 'FORBIDDEN', NOT_YOUR_SHOP);
    expect((await d.row('shops', shop.id))?.contact).toBe('a');
    expect((await d.call(manager, 'GET', '/api/auth/me')).json().user.managedShopIds).toEqual([]);
    expect(
      (await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}/managers/${manager.user.id}`)).statusCode,
    ).toBe(404);
  });

  it('deleting the shop removes its managers and invites', async () => {
    const shop = await d.shop();
    const manager = await d.manager(shop.id);
    await d.managerInvite(shop.id);
    expect((await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}`)).statusCode).toBe(204);
    expect((await d.call(manager, 'GET', '/api/auth/me')).json().user.managedShopIds).toEqual([]);
    const { rows } = await t.database.pool.query('select 1 from manager_invites where shop_id = $1', [
      shop.id,
    ]);
    expect(rows).toEqual([]);
  });
});
