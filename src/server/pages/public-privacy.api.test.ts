// Nothing private is ever in a public answer or page (issue 33): a mall with a manager (known email and
// display name), invite codes, an offer waiting for approval, a pending change to an approved offer, an
// offer sent back with a comment, and entries only the audit log holds (a deleted shop, a product's old
// name); then every public page and every route a visitor may read — found in the app's own route table,
// each list and each record of it, every filter that could reach a private row, the search for each
// private string — is fetched as a visitor and searched for every one of those strings, the emails, the
// password hashes and the session tokens.
import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewedOffer } from '../../shared/offer';
import { visitorMay } from '../../shared/permissions';
import { type Directory, openDirectory } from '../test/catalog-fixtures';
import { createTestApp, registerAs, type SignedIn, type TestApp, uniqueEmail } from '../test/harness';

let t: TestApp;
let d: Directory;
/** Strings no visitor may ever read, by what they are. */
const secrets: Record<string, string> = {};
/** Names the mall had once and has no more (only the audit log holds them). */
const history: Record<string, string> = {};
/** Strings a visitor must read (so that the search for the secrets is not of empty answers). */
const shown: Record<string, string> = {};
/** Records a visitor must not reach by their id. */
const privateIds: Record<string, string> = {};

/** A word no other row has: `Hush` and random letters, so the search for it finds only it. */
const unique = (label: string) => `Hush${label}${randomBytes(5).toString('hex')}`;

function expectStatus(response: LightMyRequestResponse, status: number, what: string) {
  expect(response.statusCode, `${what}: ${response.body.slice(0, 300)}`).toBe(status);
}

beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
  const call = d.call;

  // A shop with a manager whose email and display name are known.
  const shop = await d.shop({ name: `Shown Shop ${randomBytes(3).toString('hex')}` });
  shown.shop = shop.name;
  secrets.managerEmail = uniqueEmail('hush-manager');
  const manager: SignedIn = await registerAs(t.app, 'user', { email: secrets.managerEmail });
  secrets.managerName = unique('Name');
  expectStatus(
    await call(manager, 'PATCH', '/api/account', { displayName: secrets.managerName }),
    200,
    'display name',
  );
  const code = await d.managerInvite(shop.id);
  expectStatus(await call(manager, 'POST', '/api/manager-invites/accept', { code }), 200, 'accept');

  // Open invites: to manage the shop, and to become an admin.
  secrets.managerInviteCode = await d.managerInvite(shop.id);
  const adminInvite = await call(d.admin, 'POST', '/api/admin/invites');
  expectStatus(adminInvite, 201, 'admin invite');
  secrets.adminInviteCode = adminInvite.json().invite.code;

  // An approved offer shoppers see, then the manager's change to it, waiting for an admin.
  const approved = await d.offer({ shopId: shop.id, title: `Shown Offer ${randomBytes(3).toString('hex')}` });
  shown.offer = approved.title;
  secrets.proposedTitle = unique('Title');
  secrets.proposedTerms = unique('Terms');
  const changed = await call(manager, 'PATCH', `/api/offers/${approved.id}`, {
    title: secrets.proposedTitle,
    description: secrets.proposedTerms,
  });
  expectStatus(changed, 200, 'pending change');
  expect((changed.json() as ReviewedOffer).review?.state).toBe('pending');

  // A new offer waiting for approval.
  secrets.pendingTitle = unique('Pending');
  secrets.pendingTerms = unique('PendingTerms');
  const pending = await call(manager, 'POST', '/api/offers', {
    title: secrets.pendingTitle,
    description: secrets.pendingTerms,
    discount: 15,
    startDate: d.today(),
    endDate: d.day(10),
    shopId: shop.id,
  });
  expectStatus(pending, 201, 'pending offer');
  expect((pending.json() as ReviewedOffer).approved).toBe(false);
  privateIds.pendingOffer = pending.json().id;

  // An offer sent back to the manager, with the admin's comment.
  secrets.sentBackTitle = unique('SentBack');
  const toSendBack = (
    await call(manager, 'POST', '/api/offers', {
      title: secrets.sentBackTitle,
      discount: 5,
      startDate: d.today(),
      endDate: d.day(3),
      shopId: shop.id,
    })
  ).json() as ReviewedOffer;
  privateIds.sentBackOffer = toSendBack.id;
  secrets.reviewComment = unique('Comment');
  expectStatus(
    await call(d.admin, 'POST', `/api/offer-reviews/${toSendBack.id}/send-back`, {
      comment: secrets.reviewComment,
      version: toSendBack.review?.version,
    }),
    200,
    'send back',
  );

  // Events (issue 35): an approved one of the shop, the manager's change to it waiting, and a new one
  // waiting for approval.
  const eventBody = (title: string, description = '') => ({
    title,
    description,
    shopId: shop.id,
    placeKind: 'shop',
    placeId: shop.id,
    allDay: false,
    startDate: d.day(1),
    startTime: '10:00',
    endDate: d.day(1),
    endTime: '11:00',
  });
  shown.event = `Shown Event ${randomBytes(3).toString('hex')}`;
  const liveEvent = await call(d.admin, 'POST', '/api/events', eventBody(shown.event));
  expectStatus(liveEvent, 201, 'event');
  secrets.proposedEventTitle = unique('EventTitle');
  expectStatus(
    await call(manager, 'PATCH', `/api/events/${liveEvent.json().id}`, { title: secrets.proposedEventTitle }),
    200,
    'pending event change',
  );
  secrets.pendingEventTitle = unique('PendingEvent');
  secrets.pendingEventTerms = unique('PendingEventTerms');
  const pendingEvent = await call(
    manager,
    'POST',
    '/api/events',
    eventBody(secrets.pendingEventTitle, secrets.pendingEventTerms),
  );
  expectStatus(pendingEvent, 201, 'pending event');
  privateIds.pendingEvent = pendingEvent.json().id;

  // What only the audit log holds: a deleted shop's name, a product's old name.
  history.deletedShop = unique('Deleted');
  const deleted = await d.shop({ name: history.deletedShop });
  privateIds.deletedShop = deleted.id;
  expectStatus(await call(d.admin, 'DELETE', `/api/shops/${deleted.id}`), 204, 'delete shop');
  history.oldProductName = unique('OldName');
  const product = await d.product({ shopId: shop.id, name: history.oldProductName });
  shown.product = `Shown Product ${randomBytes(3).toString('hex')}`;
  expectStatus(
    await call(d.admin, 'PATCH', `/api/products/${product.id}`, { name: shown.product }),
    200,
    'rename product',
  );

  // Accounts: every email, password hash and session (the cookie's token and its stored hash).
  secrets.adminEmail = d.admin.user.email;
  secrets.userEmail = d.user.user.email;
  const { rows: users } = await t.database.pool.query<{ id: string; password_hash: string }>(
    'select id, password_hash from users',
  );
  expect(users.length).toBeGreaterThanOrEqual(3);
  for (const user of users) secrets[`passwordHash ${user.id}`] = user.password_hash;
  for (const [who, person] of Object.entries({ admin: d.admin, user: d.user, manager })) {
    secrets[`${who}SessionToken`] = person.cookie;
    secrets[`${who}SessionHash`] = createHash('sha256').update(person.cookie).digest('hex');
  }
  const { rows: sessions } = await t.database.pool.query<{ token_hash: string }>(
    'select token_hash from sessions',
  );
  for (const [i, session] of sessions.entries()) secrets[`sessionHash ${i}`] = session.token_hash;
  // Every user id is private too (audit entries carry actors; nothing public names a person).
  for (const user of users) secrets[`userId ${user.id}`] = user.id;
  await t.settle();
});
afterAll(async () => {
  await t?.close();
});

/** Every answer a visitor got, by URL. */
const seen = new Map<string, LightMyRequestResponse>();

async function visit(url: string): Promise<LightMyRequestResponse> {
  const response = await t.app.inject({ method: 'GET', url });
  expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
  seen.set(url, response);
  return response;
}

/** The ids of a list's items as a visitor reads it, every page of it (a list without `total` is one page). */
async function listedIds(list: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const response = await visit(`${list}?page=${page}&pageSize=100`);
    expect(response.statusCode, list).toBe(200);
    const body = response.json() as { items: { id: string }[]; total?: number };
    ids.push(...body.items.map((item) => item.id));
    if (body.total === undefined || ids.length >= body.total || body.items.length === 0) return ids;
  }
}

describe('what a visitor can read', () => {
  it('holds none of the private strings: every public page and every answer of every route a visitor may read', async () => {
    // The routes a visitor may read, from the app's own table: those without a permission (pages,
    // robots, the sitemap, the public API routes) and the public directory's reads.
    const readable = t.app.routeTable.filter(
      (route) =>
        route.method === 'GET' &&
        (!route.permission || visitorMay(route.permission.action, route.permission.resource, true)),
    );
    const shopIds = await listedIds('/api/shops');
    const slugs = await Promise.all(shopIds.map(slugOf));
    const hushWords = [...Object.values(secrets), ...Object.values(history)].filter((secret) =>
      secret.startsWith('Hush'),
    );
    const covered = new Set<string>();
    for (const { url } of readable) {
      covered.add(url);
      if (url === '/api/images/:key/:variant' || url === '/api/docs/static/*') {
        // Image bytes by their unguessable key, and Swagger UI's own files: no text of the mall's.
      } else if (url === '/api/search' || url === '/search') {
        for (const q of [...hushWords, 'hush', 'shown']) await visit(`${url}?q=${encodeURIComponent(q)}`);
      } else if (url === '/events/:id' || url.startsWith('/api/events/:id')) {
        // Events by the ids the public list gives (its items are dates of events), and the pending one.
        const list = (await visit('/api/events?pageSize=100')).json() as {
          items: { event: { id: string } }[];
        };
        const ids = [...new Set(list.items.map((item) => item.event.id))];
        expect(ids.length).toBeGreaterThan(0);
        for (const id of [...ids, ...Object.values(privateIds)]) await visit(url.replace(':id', id));
      } else if (url.endsWith('/:id')) {
        const ids = await listedIds(url.slice(0, -'/:id'.length));
        for (const id of [...ids, ...Object.values(privateIds)]) await visit(url.replace(':id', id));
      } else if (url.endsWith('/:slug')) {
        for (const address of [...slugs, ...shopIds, ...Object.values(privateIds)])
          await visit(url.replace(':slug', address));
      } else if (url === '/sitemap-:n.xml') {
        for (const n of ['1', '2']) await visit(url.replace(':n', n));
      } else if (!url.includes(':') && !url.includes('*')) {
        await visit(url);
      } else covered.delete(url);
    }
    // The lists filtered every way that could reach a private row, and their further pages.
    for (const shopId of [...shopIds, privateIds.deletedShop]) {
      for (const active of ['true', 'false']) await visit(`/api/offers?shopId=${shopId}&active=${active}`);
      await visit(`/api/products?shopId=${shopId}`);
    }
    for (const q of ['hush', 'pending', 'shown'])
      for (const list of ['/api/shops', '/api/products', '/api/offers', '/shops'])
        await visit(`${list}?q=${q}`);
    for (const further of [
      '/shops?page=2',
      '/offers?page=2',
      `/shops/${slugs[0]}?page=2`,
      '/events?page=2',
      '/api/events/overview?page=2',
    ])
      await visit(further);
    // The events' lists and feeds per shop and tag.
    for (const shopId of shopIds)
      for (const feed of ['/api/events', '/api/events/calendar.ics', '/api/events/feed.json'])
        await visit(`${feed}?shopId=${shopId}`);
    // Every route a visitor may read was read.
    expect(readable.map((route) => route.url).filter((url) => !covered.has(url))).toEqual([]);
    expect(readable.map((route) => route.url)).toEqual(
      expect.arrayContaining(['/shops', '/offers', '/floors', '/search', '/robots.txt', '/sitemap.xml']),
    );

    // Not a private record by its id either.
    for (const id of [privateIds.pendingOffer, privateIds.sentBackOffer])
      expect(seen.get(`/api/offers/${id}`)?.statusCode).toBe(404);

    // The search had something to search in: what is public is there.
    const everything = [...seen.values()].map((response) => response.body).join('\n');
    for (const [what, text] of Object.entries(shown)) expect(everything, what).toContain(text);
    const shownSlug = slugs.find((slug) => slug.startsWith('shown-shop'));
    expect(seen.get(`/shops/${shownSlug}`)?.body).toContain(shown.offer);
    expect(seen.get(`/shops/${shownSlug}`)?.body).toContain(shown.product);
    expect(seen.size).toBeGreaterThan(100);

    // A search for a private word finds nothing, on the API and on the page drawn from it.
    for (const q of hushWords) {
      const api = seen.get(`/api/search?q=${q}`)?.json() as Record<string, { total: number }>;
      expect([api.shops?.total, api.products?.total, api.offers?.total], q).toEqual([0, 0, 0]);
      const state = /<script type="application\/json" id="page-state">([\s\S]*?)<\/script>/.exec(
        seen.get(`/search?q=${q}`)?.body ?? '',
      )?.[1];
      const read = (
        JSON.parse(state ?? '{"queries":[]}') as {
          queries: { queryKey: unknown[]; state: { data?: unknown } }[];
        }
      ).queries.find((query) => query.queryKey[0] === 'search')?.state.data as
        | Record<string, { total: number }>
        | undefined;
      expect([read?.shops?.total, read?.products?.total, read?.offers?.total], q).toEqual([0, 0, 0]);
    }

    const leaks: string[] = [];
    for (const [url, response] of seen) {
      // What the visitor typed, echoed back (the search box, "for “…”", the answer's `q`), is theirs: a
      // search for a private word is checked above to find nothing.
      const q = new URL(url, 'http://mall.invalid').searchParams.get('q')?.toLowerCase() ?? '';
      const typed = hushWords.some((word) => word.toLowerCase() === q) ? q : '';
      const body = typed ? response.body.toLowerCase().split(typed).join('') : response.body.toLowerCase();
      for (const [what, secret] of Object.entries(secrets))
        if (body.includes(secret.toLowerCase())) leaks.push(`${what} in ${url} (${response.statusCode})`);
      // A deleted shop's name and a product's old name were public once: the search's vocabulary keeps
      // every word the mall had (migration 0010: "Words are never removed"), so a near miss may be offered
      // one as "Did you mean". Nowhere else.
      const { pathname, searchParams } = new URL(url, 'http://mall.invalid');
      const isSearch = pathname === '/api/search' || pathname === '/search';
      const suggested = isSearch
        ? String(seen.get(`/api/search?q=${searchParams.get('q') ?? ''}`)?.json().didYouMean ?? '')
        : '';
      const unsuggested = suggested ? body.split(suggested).join('') : body;
      for (const [what, secret] of Object.entries(history))
        if (unsuggested.includes(secret.toLowerCase()))
          leaks.push(`${what} in ${url} (${response.statusCode})`);
    }
    expect(leaks).toEqual([]);
  }, 300_000);
});

async function slugOf(id: string): Promise<string> {
  const response = await t.app.inject({ method: 'GET', url: `/api/shops/${id}` });
  return (response.json() as { slug: string }).slug;
}
