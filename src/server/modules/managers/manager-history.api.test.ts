// A shop manager's history (GET /api/manage/shops/:id/activity) never hands out the mall office's
// emails nor an invite's code hint (docs/security.md): an admin shows as "the mall office" (or their display
// name with it), in every field of every entry. The shop's own managers show as they are; the admins'
// Activity screen is unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditEntry, type AuditPage, MALL_OFFICE } from '../../../shared/audit';
import type { ReviewedOffer } from '../../../shared/offer';
import type { ShopDetail } from '../../../shared/shop';
import { type Directory, openDirectory, uniqueName } from '../../test/catalog-fixtures';
import { createTestApp, registerAs, type SignedIn, type TestApp } from '../../test/harness';
import { createOrPromoteAdmin } from '../accounts/admin-accounts';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

/** Everything in a text that is no uuid nor timestamp: a 4-character hint may occur inside those by chance. */
const withoutIdsAndTimes = (text: string) =>
  text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?/g, '<time>');

describe("a shop manager's history of their shop", () => {
  let shop: ShopDetail;
  let manager: SignedIn;
  /** Another admin, with a display name. */
  let dana: SignedIn;
  /** A manager of the shop the admin removed. */
  let removed: SignedIn;
  /** A manager of the shop who became an admin later. */
  let promoted: SignedIn;
  const hints: string[] = [];
  const codes: string[] = [];

  async function invite(): Promise<string> {
    const response = await d.call(d.admin, 'POST', `/api/shops/${shop.id}/manager-invites`);
    expect(response.statusCode, response.body).toBe(201);
    const { invite: created } = response.json() as { invite: { id: string; code: string; codeHint: string } };
    hints.push(created.codeHint);
    codes.push(created.code);
    return created.code;
  }

  async function becomeManager(): Promise<SignedIn> {
    const person = await registerAs(t.app, 'user');
    const accepted = await d.call(person, 'POST', '/api/manager-invites/accept', { code: await invite() });
    expect(accepted.statusCode, accepted.body).toBe(200);
    return person;
  }

  async function submitOffer(title: string): Promise<ReviewedOffer> {
    const created = await d.call(manager, 'POST', '/api/offers', {
      title,
      discount: 15,
      startDate: d.today(),
      endDate: d.day(10),
      shopId: shop.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json() as ReviewedOffer;
  }

  beforeAll(async () => {
    dana = await registerAs(t.app, 'admin');
    const named = await d.call(dana, 'PATCH', '/api/account', { displayName: 'Dana' });
    expect(named.statusCode, named.body).toBe(200);

    shop = await d.shop();
    // An invite used: the manager joins (the invite's use and the membership are logged).
    manager = await becomeManager();
    // The admin edits the shop, and adds a product to it.
    const edited = await d.call(d.admin, 'PATCH', `/api/shops/${shop.id}`, {
      description: 'Edited by the office',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await d.product({ shopId: shop.id });
    // The manager's own edit.
    const own = await d.call(manager, 'PATCH', `/api/shops/${shop.id}`, { location: 'Next to the fountain' });
    expect(own.statusCode, own.body).toBe(200);

    // An offer approved by the admin, another sent back by Dana.
    const first = await submitOffer(uniqueName('Approved'));
    const approved = await d.call(d.admin, 'POST', `/api/offer-reviews/${first.id}/approve`, {
      version: first.review?.version,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const second = await submitOffer(uniqueName('Sent back'));
    const sentBack = await d.call(dana, 'POST', `/api/offer-reviews/${second.id}/send-back`, {
      // an admin's email inside a longer text, upper case: replaced there too
      comment: `At most 10% please, or ask ${d.admin.user.email.toUpperCase()}`,
      version: second.review?.version,
    });
    expect(sentBack.statusCode, sentBack.body).toBe(200);

    // An invite left open, one revoked.
    await invite();
    await invite();
    const open = (await d.call(d.admin, 'GET', `/api/shops/${shop.id}/managers`)).json() as {
      invites: { id: string }[];
    };
    const revoked = await d.call(
      d.admin,
      'DELETE',
      `/api/shops/${shop.id}/manager-invites/${open.invites[0]?.id}`,
    );
    expect(revoked.statusCode, revoked.body).toBe(204);

    // A manager added, then removed by the admin.
    removed = await becomeManager();
    const gone = await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}/managers/${removed.user.id}`);
    expect(gone.statusCode, gone.body).toBe(204);

    // A manager who submitted an offer, then became an admin (`npm run admin:create` on their account).
    promoted = await becomeManager();
    const theirs = await d.call(promoted, 'POST', '/api/offers', {
      title: uniqueName('By the promoted'),
      discount: 5,
      startDate: d.today(),
      endDate: d.day(3),
      shopId: shop.id,
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const ok = await d.call(d.admin, 'POST', `/api/offer-reviews/${theirs.json().id}/approve`, {
      version: (theirs.json() as ReviewedOffer).review?.version,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    await createOrPromoteAdmin(t.database.db, promoted.user.email.toLowerCase(), 'not-a-real-hash');
  });

  const history = async (as: SignedIn) => {
    const response = await d.call(as, 'GET', `/api/manage/shops/${shop.id}/activity?pageSize=100`);
    expect(response.statusCode, response.body).toBe(200);
    return { body: response.body, page: response.json() as AuditPage };
  };

  it('names no admin by email and carries no invite code hint, in any field of any entry', async () => {
    const { body, page } = await history(manager);
    const admins = [d.admin.user.email, dana.user.email, promoted.user.email].map((e) => e.toLowerCase());
    expect(hints).toHaveLength(5);

    // The whole answer, serialised.
    for (const email of admins) expect(body.toLowerCase()).not.toContain(email);
    const text = withoutIdsAndTimes(body);
    for (const hint of hints) expect(text, `code hint ${hint}`).not.toContain(hint);
    for (const code of codes) expect(body).not.toContain(code);
    expect(body).not.toContain('codeHint');
    expect(body).not.toContain('…');

    // Entry by entry, field by field.
    expect(page.items.length).toBeGreaterThan(8);
    expect(page.total).toBe(page.items.length);
    for (const entry of page.items) {
      expect(entry.entityType, JSON.stringify(entry)).not.toBe('invite');
      for (const [field, value] of Object.entries(entry)) {
        const serialised = JSON.stringify(value ?? null).toLowerCase();
        for (const email of admins)
          expect(serialised, `${field} of ${entry.entityName}`).not.toContain(email);
        for (const hint of hints) {
          expect(withoutIdsAndTimes(JSON.stringify(value ?? null)), `${field}`).not.toContain(hint);
        }
      }
    }
  });

  it("shows the admins as the mall office, the shop's managers as they are", async () => {
    const { page } = await history(manager);
    const find = (match: (entry: AuditEntry) => boolean) => {
      const found = page.items.filter(match);
      expect(found.length, 'an entry').toBeGreaterThan(0);
      return found;
    };
    // The admin: no id, no email, whatever they did.
    for (const entry of find((e) => e.actorEmail === MALL_OFFICE)) expect(entry.actorId).toBeNull();
    const byAdmin = find((e) => e.actorEmail === MALL_OFFICE).map((e) => `${e.entityType} ${e.action}`);
    for (const kind of [
      'shop create',
      'shop update',
      'product create',
      'offer approve',
      'membership delete',
    ]) {
      expect(byAdmin).toContain(kind);
    }
    // Dana has a display name: said, with whom she works for.
    const [sentBack] = find((e) => e.action === 'send_back');
    expect(sentBack?.actorEmail).toBe(`Dana (${MALL_OFFICE})`);
    expect(sentBack?.actorId).toBeNull();
    expect(sentBack?.detail).toMatchObject({
      comment: `At most 10% please, or ask ${MALL_OFFICE}`,
      submittedBy: manager.user.email,
    });

    // The manager and their fellow managers: as they are (their own edits, joining, submitting).
    const mine = find((e) => e.actorId === manager.user.id);
    expect(mine.every((e) => e.actorEmail === manager.user.email)).toBe(true);
    expect(mine.map((e) => `${e.entityType} ${e.action}`)).toEqual(
      expect.arrayContaining(['membership create', 'shop update', 'offer create']),
    );
    const [removal] = find((e) => e.entityType === 'membership' && e.action === 'delete');
    expect(removal?.changes.manager?.before).toBe(removed.user.email);
    expect(removal?.entityName).toContain(removed.user.email);
    expect(find((e) => e.actorId === removed.user.id)[0]?.actorEmail).toBe(removed.user.email);

    // Someone who is an admin now: the mall office, in the actor, the name and the values.
    const theirJoin = find(
      (e) => e.entityType === 'membership' && e.action === 'create' && e.actorId === null,
    );
    expect(theirJoin.map((e) => [e.actorEmail, e.entityName, e.changes.manager?.after])).toEqual([
      [MALL_OFFICE, `${MALL_OFFICE} manages ${shop.name}`, MALL_OFFICE],
    ]);

    // The admin's edit itself still shows what changed.
    const [edit] = find((e) => e.entityType === 'shop' && e.action === 'update' && e.actorId === null);
    expect(edit?.changes.description?.after).toBe('Edited by the office');
  });

  it("leaves the admins' Activity screen as it was: emails and code hints", async () => {
    const all: AuditEntry[] = [];
    for (const query of [
      `entityId=${shop.id}`,
      'entityType=invite',
      'entityType=membership',
      'entityType=offer',
    ]) {
      const response = await d.call(d.admin, 'GET', `/api/audit?${query}&pageSize=100`);
      all.push(...(response.json() as AuditPage).items.filter((e) => e.shopId === shop.id));
    }
    const edit = all.find(
      (e) => e.entityType === 'shop' && e.action === 'update' && e.actorId === d.admin.user.id,
    );
    expect(edit?.actorEmail).toBe(d.admin.user.email);
    const invites = all.filter((e) => e.entityType === 'invite');
    expect(invites.length).toBeGreaterThanOrEqual(hints.length);
    expect(invites.map((e) => e.entityName).join(' ')).toContain(`…${hints[0]}`);
    const body = JSON.stringify(all);
    expect(body).toContain(dana.user.email);
    expect(body).toContain(promoted.user.email);
  });
});

describe('what a manager wrote, read back in their history', () => {
  it('is shown as written, an admin’s email too: the history is no oracle for whose email is an admin’s', async () => {
    const shop = await d.shop();
    const manager = await d.manager(shop.id);
    const guesses = [d.admin.user.email, d.admin.user.email.toUpperCase(), 'nobody@example.com'];
    for (const contact of guesses) {
      const edit = await d.call(manager, 'PATCH', `/api/shops/${shop.id}`, {
        contact,
        location: `Ask ${contact} at the desk`,
      });
      expect(edit.statusCode, edit.body).toBe(200);
    }
    const response = await d.call(manager, 'GET', `/api/manage/shops/${shop.id}/activity?pageSize=100`);
    const edits = (response.json() as AuditPage).items.filter(
      (e) => e.entityType === 'shop' && e.action === 'update',
    );
    // newest first: each guess comes back exactly as typed, the admin's and the stranger's alike
    expect(edits.map((e) => e.changes.contact?.after)).toEqual([...guesses].reverse());
    expect(edits.map((e) => e.changes.location?.after)).toEqual(
      [...guesses].reverse().map((guess) => `Ask ${guess} at the desk`),
    );
  });
});
