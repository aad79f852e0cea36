// The authorization matrix, generated from the app's own route table: every API route must have a rule
// here (a new route without one fails the first test), and every rule is tried as anonymous, user, a
// manager of the record's shop, a manager of another shop and admin — with the whole database compared
// before and after each refused write. What each role should
// get comes from the one permission policy (src/shared/permissions.ts) and the permission each route
// declares; a route without one is public, and only the routes listed as public may be. A visitor's
// answer follows `visitorMay`: the directory's reads while the public directory is on (issue 33,
// docs/decisions/034), so every rule is tried as anonymous on a second app with it off, too.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyDay } from '../../shared/hours';
import type { ReviewedOffer } from '../../shared/offer';
import { type Actor, can, visitorMay } from '../../shared/permissions';
import { buildApp } from '../app';
import { type Directory, openDirectory, uniqueName, unknownId } from '../test/catalog-fixtures';
import {
  createTestApp,
  registerAs,
  type SignedIn,
  TEST_TIME_ZONE,
  type TestApp,
  uniqueEmail,
} from '../test/harness';
import { multipart, testJpeg } from '../test/images';
import { importSettled, startImport } from '../test/imports';

let t: TestApp;
let d: Directory;
/** The same database and clock with the public directory off (MALL_PUBLIC_DIRECTORY=off). */
let closedApp: FastifyInstance;
/** A manager of a shop no rule's record belongs to (the "manager of another shop"). */
let elsewhere: { shopId: string; as: SignedIn };
/** A manager for rules whose record has no shop. */
let anyManager: { shopId: string; as: SignedIn };
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
  closedApp = await buildApp({
    database: t.database,
    timeZone: TEST_TIME_ZONE,
    now: t.now,
    publicDirectory: false,
    // The same pictures as the app the requests' records are made through.
    imageStore: t.app.imageStore,
    // As createTestApp's: no event-loop check (in CI, beside the browser tests, a lag made it answer 503).
    maxEventLoopDelayMs: 0,
  });
  await closedApp.ready();
  for (const target of ['elsewhere', 'anyManager'] as const) {
    const shopId = (await d.shop()).id;
    const value = { shopId, as: await d.manager(shopId) };
    if (target === 'elsewhere') elsewhere = value;
    else anyManager = value;
  }
});
afterAll(async () => {
  await closedApp?.close();
  await t?.close();
});

const ROLES = ['anonymous', 'user', 'manager', 'other-manager', 'admin'] as const;
type Role = (typeof ROLES)[number];
interface Built {
  url: string;
  payload?: unknown;
  /** The shop the record is or belongs to: the "manager" role manages it, the "other-manager" not. */
  shopId?: string;
  /** Headers beyond the person's (a multipart upload's). */
  headers?: Record<string, string>;
  /** The shop's fields the request changes, when the payload does not name them (an upload). */
  fields?: string[];
}
interface Rule {
  /** Builds one request against fresh data of its own. */
  request: () => Promise<Built>;
  /** The answer when the request is allowed. */
  success: number;
  /** Where a role's allowed answer is another (an admin accepting a manager invite). */
  answers?: Partial<Record<Role, number>>;
}

/** The routes @fastify/swagger-ui registers under /api/docs (docs/decisions/028). */
const API_DOCS_ROUTES = [
  'GET /api/docs',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/static/*',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
];

/** The routes anyone may call, signed in or not: the health check and the account routes. */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/settings',
  // The API reference generated from the route schemas (docs/decisions/028): no data, only shapes.
  'GET /api/openapi.json',
  // Its interactive reference (Swagger UI): the page, its files and the same document as JSON and YAML.
  ...API_DOCS_ROUTES,
  // The mall's opening hours: the landing page shows them to visitors (docs/decisions/017).
  'GET /api/mall-hours',
  // The mall's profile: the public pages and their structured data show it (docs/decisions/034).
  'GET /api/mall/profile',
  'GET /api/auth/me',
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  // Content-addressed image variants: the unguessable URL is the capability (docs/decisions/020).
  'GET /api/images/:key/:variant',
]);

/** A JPEG upload's request, for a shop's, product's or floor's image route. */
async function uploadRequest(url: string, shopId?: string, fields?: string[]): Promise<Built> {
  const { payload, headers } = multipart(await testJpeg());
  return { url, payload, headers, shopId, fields };
}

/** An image uploaded by an admin to a new shop's logo: its key. */
async function uploadedLogo(): Promise<string> {
  const shop = await d.shop();
  const { payload, headers } = multipart(await testJpeg());
  const response = await t.app.inject({
    method: 'PUT',
    url: `/api/shops/${shop.id}/logo`,
    payload,
    headers: { ...headers, ...d.admin.headers },
  });
  return response.json().image as string;
}

const RULES: Record<string, Rule> = {
  'GET /api/health': { request: async () => ({ url: '/api/health' }), success: 200 },
  'GET /api/settings': { request: async () => ({ url: '/api/settings' }), success: 200 },
  'GET /api/openapi.json': { request: async () => ({ url: '/api/openapi.json' }), success: 200 },
  'GET /api/docs': { request: async () => ({ url: '/api/docs' }), success: 200 },
  // The plugin sends its old index page's address on to the page.
  'GET /api/docs/static/index.html': {
    request: async () => ({ url: '/api/docs/static/index.html' }),
    success: 302,
  },
  'GET /api/docs/static/swagger-initializer.js': {
    request: async () => ({ url: '/api/docs/static/swagger-initializer.js' }),
    success: 200,
  },
  'GET /api/docs/static/*': {
    request: async () => ({ url: '/api/docs/static/swagger-ui-bundle.js' }),
    success: 200,
  },
  'GET /api/docs/json': { request: async () => ({ url: '/api/docs/json' }), success: 200 },
  'GET /api/docs/yaml': { request: async () => ({ url: '/api/docs/yaml' }), success: 200 },
  'GET /api/auth/me': { request: async () => ({ url: '/api/auth/me' }), success: 200 },
  'GET /api/images/:key/:variant': {
    request: async () => ({ url: `/api/images/${await uploadedLogo()}/480.webp` }),
    success: 200,
  },
  'PUT /api/shops/:id/logo': {
    request: async () => {
      const shop = await d.shop();
      return uploadRequest(`/api/shops/${shop.id}/logo`, shop.id, ['logo']);
    },
    success: 200,
  },
  'PUT /api/shops/:id/cover': {
    request: async () => {
      const shop = await d.shop();
      return uploadRequest(`/api/shops/${shop.id}/cover`, shop.id, ['cover']);
    },
    success: 200,
  },
  'PUT /api/products/:id/photo': {
    request: async () => {
      const product = await d.product();
      return uploadRequest(`/api/products/${product.id}/photo`, product.shopId);
    },
    success: 200,
  },
  'PUT /api/floors/:id/plan': {
    request: async () => uploadRequest(`/api/floors/${(await d.floor()).id}/plan`),
    success: 200,
  },
  'DELETE /api/shops/:id/logo': {
    request: async () => {
      const shop = await d.shop();
      return { url: `/api/shops/${shop.id}/logo`, shopId: shop.id, fields: ['logo'] };
    },
    success: 200,
  },
  'DELETE /api/shops/:id/cover': {
    request: async () => {
      const shop = await d.shop();
      return { url: `/api/shops/${shop.id}/cover`, shopId: shop.id, fields: ['cover'] };
    },
    success: 200,
  },
  'DELETE /api/products/:id/photo': {
    request: async () => {
      const product = await d.product();
      return { url: `/api/products/${product.id}/photo`, shopId: product.shopId };
    },
    success: 200,
  },
  // Pins on a floor's plan: a change to the floor, admins only — a shop's own manager too gets 403.
  'PUT /api/floors/:id/pins': {
    request: async () => {
      const floor = await d.floor();
      const upload = await uploadRequest(`/api/floors/${floor.id}/plan`);
      const uploaded = await t.app.inject({
        method: 'PUT',
        url: upload.url,
        payload: upload.payload as Buffer,
        headers: { ...upload.headers, ...d.admin.headers },
      });
      if (uploaded.statusCode !== 200) throw new Error(`plan upload failed: ${uploaded.body}`);
      const shop = await d.shop({ floorId: floor.id });
      return {
        url: `/api/floors/${floor.id}/pins`,
        payload: { pins: [{ kind: 'shop', id: shop.id, pin: { x: 0.5, y: 0.5 } }] },
        shopId: shop.id,
      };
    },
    success: 200,
  },
  'DELETE /api/floors/:id/plan': {
    request: async () => ({ url: `/api/floors/${(await d.floor()).id}/plan` }),
    success: 200,
  },
  'POST /api/auth/register': {
    request: async () => ({
      url: '/api/auth/register',
      payload: { email: uniqueEmail(), password: 'secret1' },
    }),
    success: 201,
  },
  'POST /api/auth/login': {
    request: async () => ({ url: '/api/auth/login', payload: { email: uniqueEmail(), password: 'secret1' } }),
    success: 401,
  },
  'POST /api/auth/logout': { request: async () => ({ url: '/api/auth/logout' }), success: 204 },
  'GET /api/mall-hours': { request: async () => ({ url: '/api/mall-hours' }), success: 200 },
  'GET /api/mall/profile': { request: async () => ({ url: '/api/mall/profile' }), success: 200 },
  // A person's own account: every signed-in role, never a visitor's.
  'PATCH /api/account': {
    request: async () => ({ url: '/api/account', payload: { displayName: 'Sam' } }),
    success: 200,
  },
  'POST /api/account/password': {
    request: async () => ({
      url: '/api/account/password',
      payload: { currentPassword: 'secret-password', newPassword: 'secret-password' },
    }),
    success: 200,
  },
  'POST /api/account/sign-out-everywhere': {
    request: async () => ({ url: '/api/account/sign-out-everywhere' }),
    success: 204,
  },
  'PUT /api/mall-hours': {
    request: async () => ({ url: '/api/mall-hours', payload: { hours: everyDay('09:00', '22:00') } }),
    success: 200,
  },
  // The mall's profile and its logo: the mall office's only (docs/decisions/034).
  'PUT /api/mall/profile': {
    request: async () => ({
      url: '/api/mall/profile',
      payload: {
        name: uniqueName('Mall'),
        streetAddress: '1 Mall Road',
        locality: 'Bengaluru',
        region: 'Karnataka',
        postalCode: '560001',
        country: 'IN',
        phone: '+91 80 1234 5678',
        latitude: 12.97,
        longitude: 77.59,
        currency: 'INR',
        publicUrl: 'https://mall.example.com',
      },
    }),
    success: 200,
  },
  'PUT /api/mall/profile/logo': {
    request: async () => uploadRequest('/api/mall/profile/logo'),
    success: 200,
  },
  'DELETE /api/mall/profile/logo': {
    request: async () => ({ url: '/api/mall/profile/logo' }),
    success: 200,
  },
  'GET /api/stats': { request: async () => ({ url: '/api/stats' }), success: 200 },
  'GET /api/search': { request: async () => ({ url: '/api/search?q=shop' }), success: 200 },
  'GET /api/audit': { request: async () => ({ url: '/api/audit' }), success: 200 },
  'GET /api/audit/actors': { request: async () => ({ url: '/api/audit/actors' }), success: 200 },
  'POST /api/admin/invites': { request: async () => ({ url: '/api/admin/invites' }), success: 201 },
  'GET /api/admin/invites': { request: async () => ({ url: '/api/admin/invites' }), success: 200 },
  'GET /api/shops/:id/managers': {
    request: async () => {
      const shopId = (await d.shop()).id;
      return { url: `/api/shops/${shopId}/managers`, shopId };
    },
    success: 200,
  },
  'POST /api/shops/:id/manager-invites': {
    request: async () => {
      const shopId = (await d.shop()).id;
      return { url: `/api/shops/${shopId}/manager-invites`, shopId };
    },
    success: 201,
  },
  'DELETE /api/shops/:id/manager-invites/:inviteId': {
    request: async () => {
      const shopId = (await d.shop()).id;
      await d.managerInvite(shopId);
      const listed = await t.app.inject({ url: `/api/shops/${shopId}/managers`, headers: d.admin.headers });
      return { url: `/api/shops/${shopId}/manager-invites/${listed.json().invites[0].id}`, shopId };
    },
    success: 204,
  },
  'DELETE /api/shops/:id/managers/:userId': {
    request: async () => {
      const shopId = (await d.shop()).id;
      const manager = await d.manager(shopId);
      return { url: `/api/shops/${shopId}/managers/${manager.user.id}`, shopId };
    },
    success: 204,
  },
  'POST /api/manager-invites/preview': {
    request: async () => ({
      url: '/api/manager-invites/preview',
      payload: { code: await d.managerInvite((await d.shop()).id) },
    }),
    success: 200,
  },
  'POST /api/manager-invites/accept': {
    request: async () => ({
      url: '/api/manager-invites/accept',
      payload: { code: await d.managerInvite((await d.shop()).id) },
    }),
    success: 200,
    answers: { admin: 409 },
  },
  'GET /api/manage/shops': { request: async () => ({ url: '/api/manage/shops' }), success: 200 },
  'GET /api/manage/shops/:id/offers': {
    request: async () => {
      const shopId = (await d.shop()).id;
      return { url: `/api/manage/shops/${shopId}/offers`, shopId };
    },
    success: 200,
  },
  'GET /api/manage/shops/:id/activity': {
    request: async () => {
      const shopId = (await d.shop()).id;
      return { url: `/api/manage/shops/${shopId}/activity`, shopId };
    },
    success: 200,
  },
  'GET /api/offer-reviews': { request: async () => ({ url: '/api/offer-reviews' }), success: 200 },
  'POST /api/offer-reviews/:id/approve': {
    request: async () => {
      const { id, version } = await pendingOffer();
      return { url: `/api/offer-reviews/${id}/approve`, payload: { version } };
    },
    success: 200,
  },
  'POST /api/offer-reviews/:id/send-back': {
    request: async () => {
      const { id, version } = await pendingOffer();
      return {
        url: `/api/offer-reviews/${id}/send-back`,
        payload: { comment: 'Please check the dates', version },
      };
    },
    success: 200,
  },
  'DELETE /api/admin/invites/:id': {
    request: async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/admin/invites',
        headers: d.admin.headers,
      });
      return { url: `/api/admin/invites/${created.json().invite.id}` };
    },
    success: 204,
  },
};

/** An offer a shop manager submitted, waiting for an admin. */
/** An offer a manager submitted: its id and the version an admin sees in the queue. */
async function pendingOffer(): Promise<{ id: string; version: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/offers',
    headers: anyManager.as.headers,
    payload: {
      title: uniqueName('Pending'),
      discount: 10,
      startDate: d.today(),
      endDate: d.today(),
      shopId: anyManager.shopId,
    },
  });
  const offer = response.json() as ReviewedOffer;
  return { id: offer.id, version: offer.review?.version ?? '' };
}
const amenityBody = async () => ({ floorId: (await d.floor()).id, kind: 'lift', location: uniqueName('At') });
const existingAmenity = async () =>
  (
    await t.app.inject({
      method: 'POST',
      url: '/api/amenities',
      headers: d.admin.headers,
      payload: await amenityBody(),
    })
  ).json().id as string;
Object.assign(RULES, {
  'GET /api/floor-guide': { request: async () => ({ url: '/api/floor-guide' }), success: 200 },
  'GET /api/amenities': { request: async () => ({ url: '/api/amenities' }), success: 200 },
  'GET /api/amenities/:id': {
    request: async () => ({ url: `/api/amenities/${await existingAmenity()}` }),
    success: 200,
  },
  'POST /api/amenities': {
    request: async () => ({ url: '/api/amenities', payload: await amenityBody() }),
    success: 201,
  },
  'PATCH /api/amenities/:id': {
    request: async () => ({
      url: `/api/amenities/${await existingAmenity()}`,
      payload: { location: 'Moved' },
    }),
    success: 200,
  },
  'DELETE /api/amenities/:id': {
    request: async () => ({ url: `/api/amenities/${await existingAmenity()}` }),
    success: 204,
  },
} satisfies Record<string, Rule>);

// Events (issue 35): read as the directory; a shop's managers create and edit theirs (waiting for an
// admin), never delete, never set the picture; the approvals queue is the mall office's.
const eventBody = async (shopId?: string) => ({
  title: uniqueName('Event'),
  placeKind: 'mall',
  allDay: false,
  startDate: d.today(),
  startTime: '10:00',
  endDate: d.today(),
  endTime: '11:00',
  ...(shopId ? { shopId } : {}),
});
/** An approved event of a new shop, made by the admin. */
async function existingEvent(): Promise<{ id: string; shopId: string }> {
  const shopId = (await d.shop()).id;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/events',
    headers: d.admin.headers,
    payload: await eventBody(shopId),
  });
  return { id: response.json().id, shopId };
}
/** An event a manager submitted: its id and the version an admin sees in the queue. */
async function pendingEvent(): Promise<{ id: string; version: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/events',
    headers: anyManager.as.headers,
    payload: await eventBody(anyManager.shopId),
  });
  const event = response.json();
  return { id: event.id, version: event.review?.version ?? '' };
}
Object.assign(RULES, {
  'GET /api/events': { request: async () => ({ url: '/api/events' }), success: 200 },
  'GET /api/events/overview': { request: async () => ({ url: '/api/events/overview' }), success: 200 },
  'GET /api/events/calendar.ics': {
    request: async () => ({ url: '/api/events/calendar.ics' }),
    success: 200,
  },
  'GET /api/events/feed.json': { request: async () => ({ url: '/api/events/feed.json' }), success: 200 },
  'GET /api/events/:id': {
    request: async () => {
      const { id, shopId } = await existingEvent();
      return { url: `/api/events/${id}`, shopId };
    },
    success: 200,
  },
  'GET /api/events/:id/calendar.ics': {
    request: async () => {
      const { id, shopId } = await existingEvent();
      return { url: `/api/events/${id}/calendar.ics`, shopId };
    },
    success: 200,
  },
  'POST /api/events': {
    request: async () => {
      const shopId = (await d.shop()).id;
      return { url: '/api/events', payload: await eventBody(shopId), shopId };
    },
    success: 201,
  },
  'PATCH /api/events/:id': {
    request: async () => {
      const { id, shopId } = await existingEvent();
      return { url: `/api/events/${id}`, payload: { title: uniqueName('Renamed') }, shopId };
    },
    success: 200,
  },
  'DELETE /api/events/:id': {
    request: async () => {
      const { id, shopId } = await existingEvent();
      return { url: `/api/events/${id}`, shopId };
    },
    success: 204,
  },
  'PUT /api/events/:id/image': {
    request: async () => {
      const { id, shopId } = await existingEvent();
      return uploadRequest(`/api/events/${id}/image`, shopId, ['image']);
    },
    success: 200,
  },
  'DELETE /api/events/:id/image': {
    request: async () => {
      const { id, shopId } = await existingEvent();
      return { url: `/api/events/${id}/image`, shopId, fields: ['image'] };
    },
    success: 200,
  },
  'GET /api/manage/shops/:id/events': {
    request: async () => {
      const shopId = (await d.shop()).id;
      return { url: `/api/manage/shops/${shopId}/events`, shopId };
    },
    success: 200,
  },
  'GET /api/event-reviews': { request: async () => ({ url: '/api/event-reviews' }), success: 200 },
  'GET /api/event-reviews/all': { request: async () => ({ url: '/api/event-reviews/all' }), success: 200 },
  'POST /api/event-reviews/:id/approve': {
    request: async () => {
      const { id, version } = await pendingEvent();
      return { url: `/api/event-reviews/${id}/approve`, payload: { version } };
    },
    success: 200,
  },
  'POST /api/event-reviews/:id/send-back': {
    request: async () => {
      const { id, version } = await pendingEvent();
      return { url: `/api/event-reviews/${id}/send-back`, payload: { comment: 'Another day?', version } };
    },
    success: 200,
  },
} satisfies Record<string, Rule>);

for (const [resource, create] of [
  ['categories', async () => ({ name: uniqueName('Category') })],
  ['floors', async () => ({ name: uniqueName('Floor') })],
  [
    'shops',
    async () => ({
      name: uniqueName('Shop'),
      categoryId: (await d.category()).id,
      floorId: (await d.floor()).id,
    }),
  ],
  ['products', async () => ({ name: uniqueName('Product'), price: 12.5, shopId: (await d.shop()).id })],
  [
    'offers',
    async () => ({
      title: uniqueName('Offer'),
      discount: 10,
      startDate: d.today(),
      endDate: d.today(),
      shopId: (await d.shop()).id,
    }),
  ],
] as const) {
  /** A new record: its id and its shop (a shop's own id; none for categories and floors). */
  const existing = async (): Promise<{ id: string; shopId?: string }> => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/${resource}`,
      headers: d.admin.headers,
      payload: await create(),
    });
    const body = response.json();
    return { id: body.id, shopId: resource === 'shops' ? body.id : body.shopId };
  };
  RULES[`GET /api/${resource}`] = {
    request: async () => ({ url: `/api/${resource}` }),
    success: 200,
  };
  RULES[`GET /api/${resource}/:id`] = {
    request: async () => {
      const { id, shopId } = await existing();
      return { url: `/api/${resource}/${id}`, shopId };
    },
    success: 200,
  };
  RULES[`POST /api/${resource}`] = {
    request: async () => {
      const payload: Record<string, unknown> = await create();
      return { url: `/api/${resource}`, payload, shopId: payload.shopId as string | undefined };
    },
    success: 201,
  };
  RULES[`PATCH /api/${resource}/:id`] = {
    request: async () => {
      const { id, shopId } = await existing();
      const field = resource === 'offers' ? 'title' : 'name';
      return { url: `/api/${resource}/${id}`, payload: { [field]: uniqueName('Renamed') }, shopId };
    },
    success: 200,
  };
  RULES[`DELETE /api/${resource}/:id`] = {
    request: async () => {
      const { id, shopId } = await existing();
      return { url: `/api/${resource}/${id}`, shopId };
    },
    success: 204,
  };
}

// A shop by its public address (its slug; docs/decisions/034): read as GET /api/shops/:id is.
RULES['GET /api/shops/by-slug/:slug'] = {
  request: async () => {
    const shop = await d.shop();
    return { url: `/api/shops/by-slug/${shop.slug}`, shopId: shop.id };
  },
  success: 200,
};

// Bulk import and export (docs/decisions/022): the mall office's only.
const CSV = { 'content-type': 'text/csv' };
/** A previewed import run of one valid product row, made by the admin. */
async function previewedRun(): Promise<string> {
  const shop = await d.shop();
  const start = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/imports?kind=products',
      headers: { ...d.admin.headers, ...CSV },
      payload: `shop,name,price\n${shop.name},${uniqueName('Imported')},2\n`,
    });
  const started = await startImport(start);
  expect(started.statusCode, started.body).toBe(202);
  const { id } = started.json() as { id: string };
  expect((await importSettled(t.app, d.admin, id)).status).toBe('previewed');
  return id;
}
for (const kind of ['shops', 'products', 'offers', 'categories', 'floors', 'synonyms', 'events']) {
  RULES[`GET /api/export/${kind}`] = { request: async () => ({ url: `/api/export/${kind}` }), success: 200 };
}
Object.assign(RULES, {
  'GET /api/imports/template/:kind': {
    request: async () => ({ url: '/api/imports/template/products' }),
    success: 200,
  },
  'GET /api/imports': { request: async () => ({ url: '/api/imports' }), success: 200 },
  'POST /api/imports': {
    request: async () => ({
      url: '/api/imports?kind=products',
      payload: `shop,name,price\n${(await d.shop()).name},${uniqueName('Imported')},2\n`,
      headers: CSV,
    }),
    success: 202,
  },
  'GET /api/imports/:id': {
    request: async () => ({ url: `/api/imports/${await previewedRun()}` }),
    success: 200,
  },
  'GET /api/imports/:id/errors': {
    request: async () => ({ url: `/api/imports/${await previewedRun()}/errors` }),
    success: 200,
  },
  'POST /api/imports/:id/confirm': {
    request: async () => ({
      url: `/api/imports/${await previewedRun()}/confirm`,
      payload: { validOnly: false },
    }),
    success: 202,
  },
  // Insights (docs/decisions/035): anyone who may browse reports hits; the mall's report is the office's
  // (its permission is asked with no shop: a shop's manager is refused); a shop's numbers are its
  // managers' and the office's.
  'POST /api/insights/hits': {
    request: async () => ({ url: '/api/insights/hits', payload: { hits: [{ kind: 'open_now' }] } }),
    success: 204,
  },
  'GET /api/insights': { request: async () => ({ url: '/api/insights' }), success: 200 },
  'GET /api/insights/shops/:id': {
    request: async () => {
      const shop = await d.shop();
      return { url: `/api/insights/shops/${shop.id}`, shopId: shop.id };
    },
    success: 200,
  },
  'GET /api/synonyms': { request: async () => ({ url: '/api/synonyms' }), success: 200 },
  'POST /api/synonyms': {
    request: async () => ({
      url: '/api/synonyms',
      payload: { term: uniqueName('term'), replacement: 'toilets' },
    }),
    success: 201,
  },
  'DELETE /api/synonyms/:id': {
    request: async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/synonyms',
        headers: d.admin.headers,
        payload: { term: uniqueName('term'), replacement: 'toilets' },
      });
      return { url: `/api/synonyms/${created.json().id}` };
    },
    success: 204,
  },
} satisfies Record<string, Rule>);

/** Routes that end the session they are sent with, or change who the person is (a new membership). */
const SESSION_ENDING = new Set([
  'POST /api/auth/register',
  'POST /api/auth/logout',
  'POST /api/manager-invites/accept',
  'POST /api/account/password',
  'POST /api/account/sign-out-everywhere',
]);

/** Every row of every table, as text: equal before and after means nothing was written. */
async function databaseDigest(): Promise<string> {
  // An import accepted by an earlier row (202) goes on checking or publishing in the background: wait
  // for it, or its writes would be taken for the refused request's.
  for (let i = 0; i < 2400; i++) {
    const busy = await t.database.pool.query<{ n: number }>(
      "select count(*)::int as n from import_runs where status in ('checking', 'running')",
    );
    if (busy.rows[0]?.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const { rows } = await t.database.pool.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' order by 1",
  );
  const parts: string[] = [];
  for (const { table_name } of rows) {
    const digest = await t.database.pool.query<{ d: string | null }>(
      `select md5(string_agg(t::text, '|' order by t::text)) as d from "${table_name}" t`,
    );
    parts.push(`${table_name}:${digest.rows[0]?.d ?? ''}`);
  }
  return parts.join(',');
}

/** Who sends the request: a manager of the record's shop is made for it (invited, accepted). */
async function asRole(role: Role, built: Built): Promise<SignedIn | null> {
  if (role === 'anonymous') return null;
  if (role === 'user') return d.user;
  if (role === 'admin') return d.admin;
  if (role === 'other-manager') return elsewhere.as;
  return built.shopId ? d.manager(built.shopId) : anyManager.as;
}

/** The policy's idea of the person: their role and the shops they manage. */
function actorOf(role: Exclude<Role, 'anonymous'>, built: Built): Actor {
  if (role === 'manager')
    return { id: 'm', role: 'user', managedShopIds: [built.shopId ?? anyManager.shopId] };
  if (role === 'other-manager') return { id: 'o', role: 'user', managedShopIds: [elsewhere.shopId] };
  return { id: 'someone', role };
}

function send(
  method: string,
  as: SignedIn | null,
  request: { url: string; payload?: unknown; headers?: Record<string, string> },
  app: FastifyInstance = t.app,
) {
  return app.inject({
    method: method as 'GET',
    url: request.url,
    headers: { ...(as?.headers ?? {}), ...request.headers },
    ...(request.payload === undefined ? {} : { payload: request.payload as Record<string, unknown> }),
  });
}

describe('authorization matrix', () => {
  it('has a rule for every API route the app registers', () => {
    const apiRoutes = t.app.routeTable
      .filter((route) => route.url.startsWith('/api/'))
      .map((route) => `${route.method} ${route.url}`);
    expect(apiRoutes.length).toBeGreaterThan(20);
    const missing = apiRoutes.filter((key) => !(key in RULES));
    expect(missing, 'routes without an authorization rule').toEqual([]);
    const stale = Object.keys(RULES).filter((key) => !apiRoutes.includes(key));
    expect(stale, 'rules for routes that do not exist').toEqual([]);
  });

  const cases = Object.entries(RULES).flatMap(([key, rule]) =>
    ROLES.map((role) => [key, role, rule] as const),
  );
  it.each(cases)('%s as %s', async (key, role, rule) => {
    const method = key.split(' ')[0] ?? 'GET';
    const request = await rule.request();
    // Registering and logging out end the session they are sent with: use a fresh one, not the
    // shared user's or admin's.
    const as =
      SESSION_ENDING.has(key) && role !== 'anonymous' ? await signInFresh(role) : await asRole(role, request);
    const expected = expectedStatus(key, role, rule, request);
    const refusedWrite = method !== 'GET' && expected >= 400 && rule.success < 400;
    const before = refusedWrite ? await databaseDigest() : '';
    const response: LightMyRequestResponse = await send(method, as, request);
    expect(response.statusCode, response.body).toBe(expected);
    if (refusedWrite) expect(await databaseDigest()).toBe(before);
  });

  // MALL_PUBLIC_DIRECTORY=off: a visitor reads nothing of the directory again (401), the rest as above.
  it.each(Object.entries(RULES))('%s as anonymous, public directory off', async (key, rule) => {
    const method = key.split(' ')[0] ?? 'GET';
    const request = await rule.request();
    const expected = expectedStatus(key, 'anonymous', rule, request, false);
    const refusedWrite = method !== 'GET' && expected >= 400 && rule.success < 400;
    const before = refusedWrite ? await databaseDigest() : '';
    const response = await send(method, null, request, closedApp);
    expect(response.statusCode, response.body).toBe(expected);
    if (refusedWrite) expect(await databaseDigest()).toBe(before);
  });

  it('lets a visitor read exactly the directory while the public directory is on, and nothing when off', () => {
    const readable = (publicDirectory: boolean) =>
      t.app.routeTable
        .filter(
          (route) =>
            route.url.startsWith('/api/') &&
            route.permission &&
            visitorMay(route.permission.action, route.permission.resource, publicDirectory),
        )
        .map((route) => `${route.method} ${route.url}`)
        .sort();
    // The public directory's reads: lists and records of the directory, the floor guide, the search.
    expect(readable(true)).toEqual(
      [
        'GET /api/amenities',
        'GET /api/amenities/:id',
        'GET /api/categories',
        'GET /api/categories/:id',
        'GET /api/floor-guide',
        'GET /api/floors',
        'GET /api/floors/:id',
        'GET /api/events',
        'GET /api/events/:id',
        'GET /api/events/:id/calendar.ics',
        'GET /api/events/calendar.ics',
        'GET /api/events/feed.json',
        'GET /api/events/overview',
        'GET /api/offers',
        'GET /api/offers/:id',
        'GET /api/products',
        'GET /api/products/:id',
        'GET /api/search',
        'GET /api/shops',
        'GET /api/shops/:id',
        'GET /api/shops/by-slug/:slug',
        // Not a read: a visitor's browser reports what it showed, counted with nothing about who (035).
        'POST /api/insights/hits',
      ].sort(),
    );
    expect(readable(false)).toEqual([]);
  });

  it('has a permission on every route but the public ones', () => {
    const withoutPermission = t.app.routeTable
      .filter((route) => route.url.startsWith('/api/') && !route.permission)
      .map((route) => `${route.method} ${route.url}`);
    expect(withoutPermission.sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('answers an unknown id on a refused write with the refusal, not a 404', async () => {
    expect((await send('DELETE', d.user, { url: `/api/shops/${unknownId()}` })).statusCode).toBe(403);
  });
});

/**
 * What `role` should get: the success answer if the policy allows it — for the kind of record (or the
 * record the route's permission names, the mall's own for the mall's insights), then for this record (its shop, and for a shop the fields the request changes) — else 401 (visitor) or 403. A
 * visitor gets the success answer where `visitorMay` says so (the public directory on or off).
 */
function expectedStatus(key: string, role: Role, rule: Rule, built: Built, publicDirectory = true): number {
  const route = t.app.routeTable.find((entry) => `${entry.method} ${entry.url}` === key);
  const allowed = rule.answers?.[role] ?? rule.success;
  if (!route?.permission) return allowed;
  const { action, resource, record } = route.permission;
  // A visitor: the directory's reads while it is public, else sign in first.
  if (role === 'anonymous') return visitorMay(action, resource, publicDirectory) ? allowed : 401;
  const actor = actorOf(role, built);
  if (!can(actor, action, resource, record)) return 403;
  if (built.shopId === undefined) return allowed;
  const fields =
    built.fields ?? (resource === 'shop' && built.payload ? Object.keys(built.payload) : undefined);
  return can(actor, action, resource, { shopId: built.shopId, fields }) ? allowed : 403;
}

function signInFresh(role: Exclude<Role, 'anonymous'>): Promise<SignedIn> {
  return registerAs(t.app, role === 'admin' ? 'admin' : 'user');
}
