// The audit log and the one write path: every write route leaves exactly its expected entries (a table
// generated from the app's own route table, so a new write route without an expectation fails), in the
// same transaction as the change; the table is append-only on the database; secrets never reach it; the
// Activity screen's reads filter, page and say whether a record still exists.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPage } from '../../../shared/audit';
import { everyDay } from '../../../shared/hours';
import { sha256 } from '../../auth/tokens';
import { mallToday } from '../../lib/mall-time';
import { pruneAuditLog } from '../../ops/audit-prune';
import { addDays, type Directory, openDirectory, uniqueName, unknownId } from '../../test/catalog-fixtures';
import {
  createTestApp,
  registerAs,
  type SignedIn,
  TEST_TIME_ZONE,
  type TestApp,
  uniqueEmail,
} from '../../test/harness';
import { multipart, testJpeg } from '../../test/images';
import { importSettled } from '../../test/imports';
import { performWrite } from '../../write-path';
import { createOrPromoteAdmin } from '../accounts/admin-accounts';
import { prepareSetupCode } from '../accounts/invites';

let t: TestApp;
let d: Directory;

beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t.close();
});

interface Row {
  id: number;
  actor_id: string | null;
  actor_email: string;
  entity_type: string;
  entity_id: string | null;
  entity_name: string;
  action: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  detail: Record<string, unknown> | null;
  shop_id: string | null;
}

const lastId = async (): Promise<number> =>
  Number((await t.database.pool.query('select coalesce(max(id), 0) as n from audit_log')).rows[0].n);

const rowsAfter = async (id: number): Promise<Row[]> =>
  (await t.database.pool.query('select * from audit_log where id > $1 order by id', [id])).rows.map(
    (row) => ({
      ...row,
      id: Number(row.id),
    }),
  );

const listAudit = async (query: string): Promise<AuditPage> => {
  const response = await t.app.inject({ url: `/api/audit?${query}`, headers: d.admin.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as AuditPage;
};

/** What a write route should leave in the log: [entity type, action] per entry, in order. */
interface Expectation {
  request: () => Promise<{
    url: string;
    payload?: unknown;
    /** Who sends it (the admin unless given): the entries name them. */
    as?: SignedIn;
    headers?: Record<string, string>;
    /** The shop every entry must carry (a manager reads their shop's history by it). */
    shopId?: string;
  }>;
  status: number;
  entries: [string, string][];
  /** Waits for what the route finishes after its answer (an import run writes in the background). */
  settle?: (body: unknown) => Promise<void>;
}

/** A mall event's body (issue 35). */
const eventPayload = (shopId?: string) => ({
  title: uniqueName('Event'),
  placeKind: 'mall',
  allDay: true,
  startDate: d.today(),
  endDate: d.today(),
  ...(shopId ? { shopId } : {}),
});
const adminEvent = async (shopId?: string): Promise<string> =>
  (await d.call(d.admin, 'POST', '/api/events', eventPayload(shopId))).json().id as string;

/** An image uploaded by the admin to `url` (a shop's logo, a product's photo…). */
async function uploadTo(url: string): Promise<void> {
  const { payload, headers } = multipart(await testJpeg());
  const response = await t.app.inject({
    method: 'PUT',
    url,
    payload,
    headers: { ...headers, ...d.admin.headers },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** Uploading, and removing an uploaded image: an update of the shop, product or floor (decision 020). */
function imageExpectations(): Record<string, Expectation> {
  const targets = {
    'shops/:id/logo': async () => {
      const shop = await d.shop();
      return { url: `/api/shops/${shop.id}/logo`, shopId: shop.id, type: 'shop' };
    },
    'shops/:id/cover': async () => {
      const shop = await d.shop();
      return { url: `/api/shops/${shop.id}/cover`, shopId: shop.id, type: 'shop' };
    },
    'products/:id/photo': async () => {
      const product = await d.product();
      return { url: `/api/products/${product.id}/photo`, shopId: product.shopId, type: 'product' };
    },
    'floors/:id/plan': async () => ({
      url: `/api/floors/${(await d.floor()).id}/plan`,
      shopId: undefined as string | undefined,
      type: 'floor',
    }),
    // An event's picture: an update of the event (docs/decisions/036).
    'events/:id/image': async () => {
      const event = await t.app.inject({
        method: 'POST',
        url: '/api/events',
        headers: d.admin.headers,
        payload: eventPayload(),
      });
      return {
        url: `/api/events/${event.json().id}/image`,
        shopId: undefined as string | undefined,
        type: 'event',
      };
    },
    // The mall's logo: an update of the mall's profile (docs/decisions/034).
    'mall/profile/logo': async () => ({
      url: '/api/mall/profile/logo',
      shopId: undefined as string | undefined,
      type: 'mall',
    }),
  };
  const expectations: Record<string, Expectation> = {};
  for (const [path, target] of Object.entries(targets)) {
    const type = path.startsWith('shops')
      ? 'shop'
      : path.startsWith('products')
        ? 'product'
        : path.startsWith('mall')
          ? 'mall'
          : path.startsWith('events')
            ? 'event'
            : 'floor';
    expectations[`PUT /api/${path}`] = {
      request: async () => {
        const { url, shopId } = await target();
        const { payload, headers } = multipart(await testJpeg());
        return { url, payload, headers: { ...headers, ...d.admin.headers }, shopId };
      },
      status: 200,
      entries: [[type, 'update']],
    };
    expectations[`DELETE /api/${path}`] = {
      request: async () => {
        const { url, shopId } = await target();
        await uploadTo(url);
        return { url, shopId };
      },
      status: 200,
      entries: [[type, 'update']],
    };
  }
  return expectations;
}

describe('every write route, performed, leaves exactly its expected audit entries', () => {
  const shopFields = async () => ({
    name: uniqueName('Shop'),
    categoryId: (await d.category()).id,
    floorId: (await d.floor()).id,
  });
  const amenity = async () =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/amenities',
        headers: d.admin.headers,
        payload: { floorId: (await d.floor()).id, kind: 'lift' },
      })
    ).json().id as string;
  const EXPECTED: Record<string, Expectation> = {
    'POST /api/auth/register': {
      // A shopper's sign-up is not a change to the mall.
      request: async () => ({
        url: '/api/auth/register',
        payload: { email: uniqueEmail(), password: 'secret1', role: 'user' },
        // No cookie: a sign-up ends the session the browser had.
        headers: {},
      }),
      status: 201,
      entries: [],
    },
    'POST /api/auth/login': {
      request: async () => {
        const email = uniqueEmail();
        await registerAs(t.app, 'user', { email, password: 'secret-password' });
        return { url: '/api/auth/login', payload: { email, password: 'secret-password' }, headers: {} };
      },
      status: 200,
      entries: [],
    },
    'POST /api/auth/logout': {
      request: async () => ({ url: '/api/auth/logout', headers: (await registerAs(t.app, 'user')).headers }),
      status: 204,
      entries: [],
    },
    // A report of what a shopper looked at: counted in memory, no change to the mall (decision 035).
    'POST /api/insights/hits': {
      request: async () => ({
        url: '/api/insights/hits',
        payload: { hits: [{ kind: 'open_now' }] },
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' },
      }),
      status: 204,
      entries: [],
    },
    'POST /api/synonyms': {
      request: async () => ({
        url: '/api/synonyms',
        payload: { term: uniqueName('term'), replacement: 'toilets' },
      }),
      status: 201,
      entries: [['synonym', 'create']],
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
      status: 204,
      entries: [['synonym', 'delete']],
    },
    // A person's own account: an update of the account, by that person (a password change or signing
    // out everywhere says so in its detail, never the password).
    'PATCH /api/account': {
      request: async () => {
        const as = await registerAs(t.app, 'user');
        return { url: '/api/account', payload: { displayName: 'Asha' }, as };
      },
      status: 200,
      entries: [['account', 'update']],
    },
    'POST /api/account/password': {
      request: async () => {
        const as = await registerAs(t.app, 'user', { password: 'secret-password' });
        return {
          url: '/api/account/password',
          payload: { currentPassword: 'secret-password', newPassword: 'another-secret' },
          as,
        };
      },
      status: 200,
      entries: [['account', 'update']],
    },
    'POST /api/account/sign-out-everywhere': {
      request: async () => ({
        url: '/api/account/sign-out-everywhere',
        as: await registerAs(t.app, 'admin'),
      }),
      status: 204,
      entries: [['account', 'update']],
    },
    'PUT /api/mall-hours': {
      request: async () => ({ url: '/api/mall-hours', payload: { hours: everyDay('09:00', '22:00') } }),
      status: 200,
      entries: [['mall', 'update']],
    },
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
      status: 200,
      entries: [['mall', 'update']],
    },
    'POST /api/admin/invites': {
      request: async () => ({ url: '/api/admin/invites' }),
      status: 201,
      entries: [['invite', 'create']],
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
      status: 204,
      entries: [['invite', 'delete']],
    },
    'POST /api/categories': {
      request: async () => ({ url: '/api/categories', payload: { name: uniqueName('Category') } }),
      status: 201,
      entries: [['category', 'create']],
    },
    'PATCH /api/categories/:id': {
      request: async () => ({
        url: `/api/categories/${(await d.category()).id}`,
        // A rename and another store type: one entry (docs/decisions/034).
        payload: { name: uniqueName('C'), schemaType: 'BookStore' },
      }),
      status: 200,
      entries: [['category', 'update']],
    },
    'DELETE /api/categories/:id': {
      request: async () => ({ url: `/api/categories/${(await d.category()).id}` }),
      status: 204,
      entries: [['category', 'delete']],
    },
    'POST /api/floors': {
      request: async () => ({ url: '/api/floors', payload: { name: uniqueName('Floor') } }),
      status: 201,
      entries: [['floor', 'create']],
    },
    'PATCH /api/floors/:id': {
      request: async () => ({
        url: `/api/floors/${(await d.floor()).id}`,
        payload: { name: uniqueName('F') },
      }),
      status: 200,
      entries: [['floor', 'update']],
    },
    // Each pin that moves is its shop's or amenity's update (docs/decisions/021).
    'PUT /api/floors/:id/pins': {
      request: async () => {
        const floor = await d.floor();
        await uploadTo(`/api/floors/${floor.id}/plan`);
        const shop = await d.shop({ floorId: floor.id });
        return {
          url: `/api/floors/${floor.id}/pins`,
          payload: { pins: [{ kind: 'shop', id: shop.id, pin: { x: 0.5, y: 0.5 } }] },
          shopId: shop.id,
        };
      },
      status: 200,
      entries: [['shop', 'update']],
    },
    'POST /api/amenities': {
      request: async () => ({
        url: '/api/amenities',
        payload: { floorId: (await d.floor()).id, kind: 'atm' },
      }),
      status: 201,
      entries: [['amenity', 'create']],
    },
    'PATCH /api/amenities/:id': {
      request: async () => ({
        url: `/api/amenities/${await amenity()}`,
        payload: { location: uniqueName('At') },
      }),
      status: 200,
      entries: [['amenity', 'update']],
    },
    'DELETE /api/amenities/:id': {
      request: async () => ({ url: `/api/amenities/${await amenity()}` }),
      status: 204,
      entries: [['amenity', 'delete']],
    },
    'DELETE /api/floors/:id': {
      request: async () => ({ url: `/api/floors/${(await d.floor()).id}` }),
      status: 204,
      entries: [['floor', 'delete']],
    },
    'POST /api/shops': {
      request: async () => ({ url: '/api/shops', payload: await shopFields() }),
      status: 201,
      entries: [['shop', 'create']],
    },
    'PATCH /api/shops/:id': {
      request: async () => {
        const shopId = (await d.shop()).id;
        return { url: `/api/shops/${shopId}`, payload: { contact: 'Call 555' }, shopId };
      },
      status: 200,
      entries: [['shop', 'update']],
    },
    'DELETE /api/shops/:id': {
      request: async () => ({ url: `/api/shops/${(await d.shop()).id}` }),
      status: 204,
      entries: [['shop', 'delete']],
    },
    'POST /api/products': {
      request: async () => ({
        url: '/api/products',
        payload: { name: uniqueName('Product'), price: 12.5, shopId: (await d.shop()).id },
      }),
      status: 201,
      entries: [['product', 'create']],
    },
    ...imageExpectations(),
    'PATCH /api/products/:id': {
      request: async () => {
        const product = await d.product();
        return { url: `/api/products/${product.id}`, payload: { price: 99.99 }, shopId: product.shopId };
      },
      status: 200,
      entries: [['product', 'update']],
    },
    'DELETE /api/products/:id': {
      request: async () => ({ url: `/api/products/${(await d.product()).id}` }),
      status: 204,
      entries: [['product', 'delete']],
    },
    'POST /api/offers': {
      request: async () => ({
        url: '/api/offers',
        payload: {
          title: uniqueName('Offer'),
          discount: 10,
          startDate: d.today(),
          endDate: d.today(),
          shopId: (await d.shop()).id,
        },
      }),
      status: 201,
      entries: [['offer', 'create']],
    },
    'PATCH /api/offers/:id': {
      request: async () => ({ url: `/api/offers/${(await d.offer()).id}`, payload: { discount: 55 } }),
      status: 200,
      entries: [['offer', 'update']],
    },
    'DELETE /api/offers/:id': {
      request: async () => {
        const offer = await d.offer();
        return { url: `/api/offers/${offer.id}`, shopId: offer.shopId };
      },
      status: 204,
      entries: [['offer', 'delete']],
    },
    'POST /api/shops/:id/manager-invites': {
      request: async () => {
        const shopId = (await d.shop()).id;
        return { url: `/api/shops/${shopId}/manager-invites`, shopId };
      },
      status: 201,
      entries: [['invite', 'create']],
    },
    'DELETE /api/shops/:id/manager-invites/:inviteId': {
      request: async () => {
        const shopId = (await d.shop()).id;
        await d.managerInvite(shopId);
        const listed = await d.call(d.admin, 'GET', `/api/shops/${shopId}/managers`);
        return { url: `/api/shops/${shopId}/manager-invites/${listed.json().invites[0].id}`, shopId };
      },
      status: 204,
      entries: [['invite', 'delete']],
    },
    'DELETE /api/shops/:id/managers/:userId': {
      request: async () => {
        const shopId = (await d.shop()).id;
        const manager = await d.manager(shopId);
        return { url: `/api/shops/${shopId}/managers/${manager.user.id}`, shopId };
      },
      status: 204,
      entries: [['membership', 'delete']],
    },
    'POST /api/manager-invites/preview': {
      // Reading what an invite is for changes nothing.
      request: async () => ({
        url: '/api/manager-invites/preview',
        payload: { code: await d.managerInvite((await d.shop()).id) },
        as: d.user,
      }),
      status: 200,
      entries: [],
    },
    'POST /api/manager-invites/accept': {
      request: async () => {
        const shopId = (await d.shop()).id;
        const code = await d.managerInvite(shopId);
        return {
          url: '/api/manager-invites/accept',
          payload: { code },
          as: await registerAs(t.app, 'user'),
          shopId,
        };
      },
      status: 200,
      entries: [
        ['membership', 'create'],
        ['invite', 'use'],
      ],
    },
    'POST /api/offer-reviews/:id/approve': {
      request: async () => {
        const { id, shopId, version } = await pendingOffer();
        return { url: `/api/offer-reviews/${id}/approve`, payload: { version }, shopId };
      },
      status: 200,
      entries: [['offer', 'approve']],
    },
    'POST /api/events': {
      request: async () => ({ url: '/api/events', payload: eventPayload() }),
      status: 201,
      entries: [['event', 'create']],
    },
    'PATCH /api/events/:id': {
      request: async () => ({
        url: `/api/events/${await adminEvent()}`,
        payload: { title: uniqueName('Renamed') },
      }),
      status: 200,
      entries: [['event', 'update']],
    },
    'DELETE /api/events/:id': {
      request: async () => ({ url: `/api/events/${await adminEvent()}` }),
      status: 204,
      entries: [['event', 'delete']],
    },
    'POST /api/event-reviews/:id/approve': {
      request: async () => {
        const { id, shopId, version } = await pendingEvent();
        return { url: `/api/event-reviews/${id}/approve`, payload: { version }, shopId };
      },
      status: 200,
      entries: [['event', 'approve']],
    },
    'POST /api/event-reviews/:id/send-back': {
      request: async () => {
        const { id, shopId, version } = await pendingEvent();
        return {
          url: `/api/event-reviews/${id}/send-back`,
          payload: { comment: 'Not this week', version },
          shopId,
        };
      },
      status: 200,
      entries: [['event', 'send_back']],
    },
    'POST /api/offer-reviews/:id/send-back': {
      request: async () => {
        const { id, shopId, version } = await pendingOffer();
        return {
          url: `/api/offer-reviews/${id}/send-back`,
          payload: { comment: 'Not this week', version },
          shopId,
        };
      },
      status: 200,
      entries: [['offer', 'send_back']],
    },
  };

  /** An import run, once its preview (or its confirmed write) has finished. */
  const runSettled = async (id: string): Promise<void> => {
    await importSettled(t.app, d.admin, id);
  };
  const csvUpload = async () => ({
    url: '/api/imports?kind=products&fileName=audit.csv',
    payload: `shop,name,price\n${(await d.shop()).name},${uniqueName('Imported')},2\n`,
    headers: { ...d.admin.headers, 'content-type': 'text/csv' },
  });
  EXPECTED['POST /api/imports'] = {
    // A preview writes nothing to the mall: only the run's own row.
    request: csvUpload,
    status: 202,
    entries: [],
    settle: async (body) => runSettled((body as { id: string }).id),
  };
  EXPECTED['POST /api/imports/:id/confirm'] = {
    request: async () => {
      const upload = await csvUpload();
      const started = await t.app.inject({ method: 'POST', ...upload });
      const { id } = started.json() as { id: string };
      await runSettled(id);
      return { url: `/api/imports/${id}/confirm`, payload: { validOnly: false } };
    },
    status: 202,
    // One entry per record the run changed, then the run's own.
    entries: [
      ['product', 'create'],
      ['import', 'create'],
    ],
    settle: async (body) => runSettled((body as { id: string }).id),
  };

  async function pendingEvent(): Promise<{ id: string; shopId: string; version: string }> {
    const shopId = (await d.shop()).id;
    const manager = await d.manager(shopId);
    const response = await d.call(manager, 'POST', '/api/events', eventPayload(shopId));
    return { id: response.json().id, shopId, version: response.json().review.version };
  }

  async function pendingOffer(): Promise<{ id: string; shopId: string; version: string }> {
    const shopId = (await d.shop()).id;
    const manager = await d.manager(shopId);
    const response = await d.call(manager, 'POST', '/api/offers', {
      title: uniqueName('Pending'),
      discount: 10,
      startDate: d.today(),
      endDate: d.today(),
      shopId,
    });
    return { id: response.json().id, shopId, version: response.json().review.version };
  }

  it('has an expectation for every write route the app has, and none for a route it does not have', () => {
    const writes = t.app.routeTable
      .filter(
        (route) =>
          route.method !== 'GET' && route.url.startsWith('/api/') && !route.url.startsWith('/api/bench'),
      )
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(writes).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [route, expectation] of Object.entries(EXPECTED)) {
    it(`${route}: ${expectation.entries.map((entry) => entry.join(' ')).join(', ') || 'no entry'}`, async () => {
      const { url, payload, headers, as = d.admin, shopId } = await expectation.request();
      const before = await lastId();
      const response = await t.app.inject({
        method: route.split(' ')[0] as 'POST',
        url,
        headers: headers ?? as.headers,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      expect(response.statusCode, response.body).toBe(expectation.status);
      await expectation.settle?.(response.json());
      const rows = await rowsAfter(before);
      expect(rows.map((row) => [row.entity_type, row.action])).toEqual(expectation.entries);
      for (const row of rows) {
        expect(row.actor_id).toBe(as.user.id);
        expect(row.actor_email).toBe(as.user.email);
        if (shopId) expect(row.shop_id).toBe(shopId);
      }
    });
  }
});

describe('what an entry says', () => {
  it('records only the fields that changed, with their values before and after, by name', async () => {
    const shop = await d.shop({ contact: 'old contact', location: 'Near gate 1' });
    const otherFloor = await d.floor();
    const before = await lastId();
    const response = await d.call(d.admin, 'PATCH', `/api/shops/${shop.id}`, {
      contact: 'new contact',
      location: 'Near gate 1',
      floorId: otherFloor.id,
    });
    expect(response.statusCode).toBe(200);
    const [row, ...more] = await rowsAfter(before);
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      entity_type: 'shop',
      entity_id: shop.id,
      entity_name: shop.name,
      action: 'update',
    });
    expect(row?.changes).toEqual({
      contact: { before: 'old contact', after: 'new contact' },
      floor: { before: shop.floor, after: otherFloor.name },
    });
  });

  it('records nothing for an edit that changes nothing, or for a refused one', async () => {
    const product = await d.product();
    const before = await lastId();
    expect(
      (await d.call(d.admin, 'PATCH', `/api/products/${product.id}`, { name: product.name })).statusCode,
    ).toBe(200);
    expect((await d.call(d.admin, 'PATCH', `/api/products/${product.id}`, { price: -1 })).statusCode).toBe(
      400,
    );
    expect((await d.call(d.admin, 'PATCH', `/api/products/${unknownId()}`, { price: 1 })).statusCode).toBe(
      404,
    );
    expect((await d.call(d.user, 'DELETE', `/api/products/${product.id}`)).statusCode).toBe(403);
    expect(await rowsAfter(before)).toEqual([]);
  });

  it('records what a shop delete took with it: its products and offers', async () => {
    const shop = await d.shop();
    const product = await d.product({ shopId: shop.id });
    const offer = await d.offer({ shopId: shop.id });
    const before = await lastId();
    expect((await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}`)).statusCode).toBe(204);
    const [row] = await rowsAfter(before);
    expect(row?.changes.name).toEqual({ before: shop.name, after: null });
    expect(row?.detail).toEqual({
      products: [{ id: product.id, name: product.name }],
      offers: [{ id: offer.id, title: offer.title }],
    });
  });

  it('records a new admin account, the invite it used, and never a code, a password or its hash', async () => {
    const created = await d.call(d.admin, 'POST', '/api/admin/invites');
    const { code, codeHint, id: inviteId } = created.json().invite;
    const email = uniqueEmail('newadmin');
    const before = await lastId();
    const admin = await registerAs(t.app, 'admin', {
      email,
      password: 'a-secret-password',
      inviteCode: code,
    });
    const rows = await rowsAfter(before);
    expect(rows.map((row) => [row.entity_type, row.action, row.entity_id])).toEqual([
      ['account', 'create', admin.user.id],
      ['invite', 'use', inviteId],
    ]);
    for (const row of rows) expect(row.actor_id).toBe(admin.user.id);
    expect(rows[0]?.changes).toEqual({
      email: { before: null, after: email },
      role: { before: null, after: 'admin' },
    });
    expect(rows[1]?.entity_name).toContain(codeHint);

    const everything = JSON.stringify(
      (await t.database.pool.query('select * from audit_log')).rows,
    ).toLowerCase();
    const [{ password_hash: hash }] = (
      await t.database.pool.query('select password_hash from users where id = $1', [admin.user.id])
    ).rows;
    for (const secret of [code, code.replace(/-/g, ''), sha256(code), 'a-secret-password', hash])
      expect(everything).not.toContain(String(secret).toLowerCase());
  });

  it('records the start-up setup code, and the first admin who used it', async () => {
    const fresh = await createTestApp({ operatorInviteCode: undefined });
    try {
      const code = await prepareSetupCode(fresh.database.db, undefined, new Date());
      const first = await registerAs(fresh.app, 'admin', { inviteCode: code ?? '' });
      const { rows } = await fresh.database.pool.query(
        'select entity_type, action, entity_name, actor_id, actor_email, detail from audit_log order by id',
      );
      const hint = code?.replace(/-/g, '').slice(-4);
      expect(rows.map((row) => [row.entity_type, row.action, row.entity_name, row.actor_email])).toEqual([
        ['invite', 'create', `Setup code …${hint}`, 'server start-up'],
        ['account', 'create', first.user.email, first.user.email],
        ['invite', 'use', `Setup code …${hint}`, first.user.email],
      ]);
      expect(rows[1].detail).toEqual({ allowedBy: `Setup code …${hint}` });
      expect(JSON.stringify(rows)).not.toContain(code);
    } finally {
      await fresh.close();
    }
  });

  it('records admin:create from the command line, named as the command', async () => {
    const shopper = await registerAs(t.app, 'user');
    const before = await lastId();
    expect(await createOrPromoteAdmin(t.database.db, shopper.user.email, 'hash-not-logged')).toBe('promoted');
    expect(await createOrPromoteAdmin(t.database.db, uniqueEmail('cli'), 'hash-not-logged')).toBe('created');
    const rows = await rowsAfter(before);
    expect(rows.map((row) => [row.entity_type, row.action, row.actor_id, row.actor_email])).toEqual([
      ['account', 'update', null, 'npm run admin:create'],
      ['account', 'create', null, 'npm run admin:create'],
    ]);
    expect(rows[0]?.changes).toEqual({ role: { before: 'user', after: 'admin' } });
    expect(JSON.stringify(rows)).not.toContain('hash-not-logged');
  });
});

describe('the same transaction', () => {
  it('leaves no entry when the change rolls back, and no change without its entry', async () => {
    const name = uniqueName('Rolled back');
    const before = await lastId();
    const categories = await d.count('categories');
    await expect(
      performWrite(
        t.database.db,
        { id: d.admin.user.id, email: d.admin.user.email },
        async ({ tx, record }) => {
          await tx.execute(sql`insert into categories (name) values (${name})`);
          record({
            entityType: 'category',
            entityId: null,
            entityName: name,
            action: 'create',
            after: { name },
          });
          throw new Error('the change fails after it was recorded');
        },
      ),
    ).rejects.toThrow('the change fails after it was recorded');
    expect(await rowsAfter(before)).toEqual([]);
    expect(await d.count('categories')).toBe(categories);
  });

  it('rolls the change back when its entry cannot be written', async () => {
    const name = uniqueName('No entry');
    const categories = await d.count('categories');
    await expect(
      performWrite(t.database.db, { id: 'not-a-uuid', email: 'x' }, async ({ tx, record }) => {
        await tx.execute(sql`insert into categories (name) values (${name})`);
        record({
          entityType: 'category',
          entityId: null,
          entityName: name,
          action: 'create',
          after: { name },
        });
      }),
    ).rejects.toThrow();
    expect(await d.count('categories')).toBe(categories);
  });
});

describe('entries travel with COMMIT as one literal', () => {
  it("stores any text exactly: quotes, backslashes, the literal's own quote tag, emoji, newlines", async () => {
    const tricky = [
      'O\'Brien\'s \\ "Shop" $audit$ $$ $audit_1$ $a$ text $a1$',
      'Line one\nLine two\tTabbed',
      'Ünïcödé 🛍️ 中文 עברית',
      "'); drop table audit_log; --",
    ];
    const before = await lastId();
    await performWrite(
      t.database.db,
      { id: d.admin.user.id, email: "it's@example.com" },
      async ({ record }) => {
        for (const name of tricky)
          record({
            entityType: 'category',
            entityId: null,
            entityName: name,
            action: 'create',
            after: { name, nested: { list: [name] } },
          });
      },
    );
    const rows = await rowsAfter(before);
    expect(rows.map((row) => row.entity_name)).toEqual(tricky);
    expect(rows.map((row) => row.changes.name?.after)).toEqual(tricky);
    expect(rows.map((row) => (row.changes.nested?.after as { list: string[] } | undefined)?.list[0])).toEqual(
      tricky,
    );
    expect(rows[0]?.actor_email).toBe("it's@example.com");
  });
});

describe('append-only, on the database', () => {
  it('refuses UPDATE, DELETE and TRUNCATE from anyone connected', async () => {
    await d.category();
    const count = await lastId();
    const pool = t.database.pool;
    await expect(pool.query(`update audit_log set entity_name = 'forged'`)).rejects.toThrow(/append-only/);
    await expect(pool.query('delete from audit_log')).rejects.toThrow(/append-only/);
    await expect(pool.query('truncate audit_log')).rejects.toThrow(/append-only/);
    expect(await lastId()).toBe(count);
    const forged = await pool.query(`select count(*)::int as n from audit_log where entity_name = 'forged'`);
    expect(forged.rows[0].n).toBe(0);
  });

  it('is shortened only by audit:prune, which removes entries before a mall date and records that it ran', async () => {
    const today = mallToday(TEST_TIME_ZONE, t.now());
    // An entry from ten days ago (written with the app's clock moved back, through the write path).
    const old = uniqueName('Ten days ago');
    const past = new Date(t.now().getTime() - 10 * 24 * 3600 * 1000);
    await performWrite(
      t.database.db,
      { id: d.admin.user.id, email: d.admin.user.email },
      async ({ record }) =>
        record({ entityType: 'category', entityId: null, entityName: old, action: 'create' }),
      { now: () => past },
    );
    await d.category();
    const total = Number((await t.database.pool.query('select count(*) from audit_log')).rows[0].count);
    const removed = await pruneAuditLog(t.database.db, addDays(today, -5), TEST_TIME_ZONE, t.now);
    expect(removed).toBeGreaterThanOrEqual(1);
    const names = (await t.database.pool.query('select entity_name, action, detail from audit_log')).rows;
    expect(names.some((row) => row.entity_name === old)).toBe(false);
    expect(names.length).toBe(total - removed + 1);
    expect(names.at(-1)).toBeDefined();
    const prune = names.find((row) => row.action === 'prune');
    expect(prune?.detail).toMatchObject({ before: addDays(today, -5), removed });
    // The permission to delete lasted only for the prune's transaction.
    await expect(t.database.pool.query('delete from audit_log')).rejects.toThrow(/append-only/);
  });
});

describe('mall dates in a zone with daylight saving', () => {
  it('ends the "to" day at the mall\'s midnight, 23 hours after its start on the day the clocks go forward', async () => {
    const marker = uniqueName('DST');
    const at = (iso: string) => () => new Date(iso);
    const log = (iso: string, name: string) =>
      performWrite(
        t.database.db,
        { id: d.admin.user.id, email: d.admin.user.email },
        async ({ record }) =>
          record({ entityType: 'category', entityId: null, entityName: name, action: 'create' }),
        { now: at(iso) },
      );
    // New York, 8 March 2026: clocks go from 02:00 EST to 03:00 EDT; the day ends at 04:00Z, not 05:00Z.
    await log('2026-03-09T03:30:00Z', `${marker} late on the 8th`);
    await log('2026-03-09T04:30:00Z', `${marker} early on the 9th`);
    const { auditRepository } = await import('./repository');
    const page = await auditRepository(t.database.db).list(
      { from: '2026-03-08', to: '2026-03-08', page: 1, pageSize: 100 },
      'America/New_York',
    );
    const names = page.items.map((entry) => entry.entityName).filter((name) => name.startsWith(marker));
    expect(names).toEqual([`${marker} late on the 8th`]);
  });
});

describe('GET /api/audit (the Activity screen)', () => {
  it('lists newest first with paging, filters by kind, record, person and mall dates, and says what still exists', async () => {
    const other = await registerAs(t.app, 'admin');
    const kept = await d.product();
    const gone = await d.product();
    await d.call(d.admin, 'DELETE', `/api/products/${gone.id}`);
    await d.call(other, 'PATCH', `/api/products/${kept.id}`, { price: 77 });

    const newest = await listAudit('pageSize=2');
    expect(newest.items.map((entry) => [entry.entityId, entry.action])).toEqual([
      [kept.id, 'update'],
      [gone.id, 'delete'],
    ]);
    expect(newest.total).toBeGreaterThan(2);
    const second = await listAudit('pageSize=2&page=2');
    expect(second.items[0]?.id).not.toBe(newest.items[1]?.id);

    const ofKept = await listAudit(`entityType=product&entityId=${kept.id}`);
    expect(ofKept.items.map((entry) => entry.action)).toEqual(['update', 'create']);
    expect(ofKept.items.every((entry) => entry.entityExists)).toBe(true);
    expect(ofKept.items[0]).toMatchObject<Partial<AuditEntry>>({
      actorId: other.user.id,
      actorEmail: other.user.email,
      changes: { price: { before: '10.00', after: '77.00' } },
    });
    const ofGone = await listAudit(`entityId=${gone.id}`);
    expect(ofGone.items.every((entry) => !entry.entityExists)).toBe(true);

    const byOther = await listAudit(`actorId=${other.user.id}`);
    expect(byOther.items.every((entry) => entry.actorId === other.user.id)).toBe(true);
    expect(byOther.items.some((entry) => entry.entityId === kept.id)).toBe(true);
    const actors = (await t.app.inject({ url: '/api/audit/actors', headers: d.admin.headers })).json();
    expect(actors.items).toContainEqual({ id: other.user.id, email: other.user.email });

    const today = mallToday(TEST_TIME_ZONE, t.now());
    expect((await listAudit(`from=${today}&to=${today}&entityId=${kept.id}`)).total).toBe(2);
    expect((await listAudit(`from=${addDays(today, 1)}&entityId=${kept.id}`)).total).toBe(0);
    expect((await listAudit(`to=${addDays(today, -1)}&entityId=${kept.id}`)).total).toBe(0);
  });

  it('refuses bad filters with a clear message, and shoppers and visitors altogether', async () => {
    for (const query of [
      'entityType=spaceship',
      'actorId=nope',
      'from=yesterday',
      'from=2026-02-31',
      'to=2026-13-01',
      'from=0000-01-01',
      'to=%27%3B%20drop%20table%20audit_log',
      'page=0',
      'pageSize=1000',
      'extra=1',
    ]) {
      const response = await t.app.inject({ url: `/api/audit?${query}`, headers: d.admin.headers });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.message).toBeTruthy();
    }
    expect((await t.app.inject({ url: '/api/audit', headers: d.user.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/audit' })).statusCode).toBe(401);
  });
});
