// Who may do what in the directory: every route × anonymous, user and admin, generated from one table.
// Reads are anyone's while the public directory is on (the default: visitorMay, docs/decisions/034);
// writes need an admin (anonymous → 401, user → 403) and a refused write leaves the data exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Resource as PolicyResource, visitorMay } from '../../shared/permissions';
import { SESSION_COOKIE } from '../auth/sessions';
import {
  type As,
  type Directory,
  type Method,
  openDirectory,
  type Table,
  uniqueName,
} from '../test/catalog-fixtures';
import { createTestApp, type TestApp } from '../test/harness';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

interface Resource {
  path: string;
  table: Table;
  /** A new row; its id. */
  make(): Promise<string>;
  /** A valid body for POST. */
  createBody(): Promise<Record<string, unknown>>;
  /** A valid body for PATCH, and the stored column it changes with its new value. */
  patchBody(): { body: Record<string, unknown>; column: string; stored: unknown };
}

const resources: Resource[] = [
  {
    path: '/api/categories',
    table: 'categories',
    make: async () => (await d.category()).id,
    createBody: async () => ({ name: uniqueName('Category') }),
    patchBody: () => {
      const name = uniqueName('Renamed');
      return { body: { name }, column: 'name', stored: name };
    },
  },
  {
    path: '/api/floors',
    table: 'floors',
    make: async () => (await d.floor()).id,
    createBody: async () => ({ name: uniqueName('Floor') }),
    patchBody: () => {
      const name = uniqueName('Renamed');
      return { body: { name }, column: 'name', stored: name };
    },
  },
  {
    path: '/api/shops',
    table: 'shops',
    make: async () => (await d.shop()).id,
    createBody: async () => ({
      name: uniqueName('Shop'),
      categoryId: (await d.category()).id,
      floorId: (await d.floor()).id,
    }),
    patchBody: () => ({ body: { location: 'Unit 99' }, column: 'location', stored: 'Unit 99' }),
  },
  {
    path: '/api/products',
    table: 'products',
    make: async () => (await d.product()).id,
    createBody: async () => ({ name: uniqueName('Product'), price: 1.5, shopId: (await d.shop()).id }),
    patchBody: () => ({ body: { price: 2.25 }, column: 'price', stored: '2.25' }),
  },
  {
    path: '/api/offers',
    table: 'offers',
    make: async () => (await d.offer()).id,
    createBody: async () => ({
      title: uniqueName('Offer'),
      discount: 10,
      startDate: d.today(),
      endDate: d.day(3),
      shopId: (await d.shop()).id,
    }),
    patchBody: () => ({ body: { discount: 42 }, column: 'discount', stored: 42 }),
  },
];

type Role = 'anonymous' | 'user' | 'admin';
type Action = 'list' | 'read' | 'create' | 'edit' | 'delete';
const ACTIONS: { action: Action; method: Method; withId: boolean }[] = [
  { action: 'list', method: 'GET', withId: false },
  { action: 'read', method: 'GET', withId: true },
  { action: 'create', method: 'POST', withId: false },
  { action: 'edit', method: 'PATCH', withId: true },
  { action: 'delete', method: 'DELETE', withId: true },
];
const ADMIN_STATUS: Record<Action, number> = { list: 200, read: 200, create: 201, edit: 200, delete: 204 };

/** The policy's name for each table's records. */
const NOUN: Partial<Record<Table, PolicyResource>> = {
  categories: 'category',
  floors: 'floor',
  shops: 'shop',
  products: 'product',
  offers: 'offer',
};

function expected(action: Action, role: Role, table: Table): number {
  const reading = action === 'list' || action === 'read';
  if (role === 'anonymous') return reading && visitorMay('read', NOUN[table] ?? 'stats', true) ? 200 : 401;
  if (reading) return 200;
  return role === 'user' ? 403 : ADMIN_STATUS[action];
}

const matrix = resources.flatMap((resource) =>
  ACTIONS.flatMap(({ action, method, withId }) =>
    (['anonymous', 'user', 'admin'] as const).map((role) => ({
      name: `${method} ${resource.path}${withId ? '/:id' : ''} as ${role} → ${expected(action, role, resource.table)}`,
      resource,
      action,
      method,
      withId,
      role,
      status: expected(action, role, resource.table),
    })),
  ),
);

const who = (role: Role): As => (role === 'anonymous' ? null : role === 'user' ? d.user : d.admin);

describe('the role matrix of the directory', () => {
  it('covers 5 routes of 5 resources for 3 roles', () => {
    expect(matrix).toHaveLength(75);
  });

  it.each(matrix)('$name', async ({ resource, action, method, withId, role, status }) => {
    // Every route finds something to read, change or delete; a list has at least this row.
    const made = action === 'create' ? undefined : await resource.make();
    const id = withId ? made : undefined;
    const url = id ? `${resource.path}/${id}` : resource.path;
    const change = action === 'edit' ? resource.patchBody() : undefined;
    const payload = action === 'create' ? await resource.createBody() : change?.body;
    const countBefore = await d.count(resource.table);
    const rowBefore = id ? await d.row(resource.table, id) : undefined;

    const response = await d.call(who(role), method, url, payload);
    expect(response.statusCode, response.body).toBe(status);

    if (status === 401 || status === 403) {
      expect(response.json().error.code).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
      // Nothing was written.
      expect(await d.count(resource.table)).toBe(countBefore);
      if (id) expect(await d.row(resource.table, id)).toEqual(rowBefore);
      return;
    }

    switch (action) {
      case 'list':
        expect(response.json().items).toEqual(expect.any(Array));
        expect(response.json().items.length).toBeGreaterThan(0);
        break;
      case 'read':
        expect(response.json().id).toBe(id);
        break;
      case 'create': {
        expect(await d.count(resource.table)).toBe(countBefore + 1);
        expect(await d.row(resource.table, response.json().id)).toBeDefined();
        break;
      }
      case 'edit': {
        if (!change || !id) throw new Error('an edit needs a change and a row');
        expect((await d.row(resource.table, id))?.[change.column]).toEqual(change.stored);
        expect(await d.count(resource.table)).toBe(countBefore);
        break;
      }
      case 'delete':
        expect(response.body).toBe('');
        expect(await d.row(resource.table, id ?? '')).toBeUndefined();
        expect(await d.count(resource.table)).toBe(countBefore - 1);
        break;
    }
  });
});

describe('sessions that no longer count', () => {
  it('treats a made-up token and a signed-out session as anonymous (401 on a write, a visitor’s read), writing nothing', async () => {
    const admin = await d.t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: d.admin.user.email, password: 'secret-password' },
    });
    const cookie = admin.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '';
    const headers = { cookie: `${SESSION_COOKIE}=${cookie}` };
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers });
    expect(out.statusCode).toBe(204);

    const before = await d.count('categories');
    for (const cookieHeader of [headers.cookie, `${SESSION_COOKIE}=made-up-token`]) {
      const write = await t.app.inject({
        method: 'POST',
        url: '/api/categories',
        headers: { cookie: cookieHeader },
        payload: { name: uniqueName() },
      });
      expect(write.statusCode).toBe(401);
      // A visitor: the public directory's read, but no one's session.
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { cookie: cookieHeader },
      });
      expect(me.json().user).toBeNull();
      const read = await t.app.inject({
        method: 'GET',
        url: '/api/stats',
        headers: { cookie: cookieHeader },
      });
      expect(read.statusCode).toBe(401);
    }
    expect(await d.count('categories')).toBe(before);
    // The admin's other session (from registration) still works.
    expect((await d.call(d.admin, 'POST', '/api/categories', { name: uniqueName() })).statusCode).toBe(201);
  });
});
