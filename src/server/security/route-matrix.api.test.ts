// The authorization matrix, generated from the app's own route table: every API route must have a rule
// here (a new route without one fails the first test), and every rule is tried as anonymous, user and
// admin — with the whole database compared before and after each refused write. What each role should
// get comes from the one permission policy (src/shared/permissions.ts) and the permission each route
// declares; a route without one is public, and only the routes listed as public may be.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can } from '../../shared/permissions';
import { type Directory, openDirectory, uniqueName, unknownId } from '../test/catalog-fixtures';
import { createTestApp, registerAs, type SignedIn, type TestApp, uniqueEmail } from '../test/harness';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

type Role = 'anonymous' | 'user' | 'admin';
interface Rule {
  /** Builds one request against fresh data of its own. */
  request: () => Promise<{ url: string; payload?: unknown }>;
  /** The answer when the request is allowed. */
  success: number;
}

/** The routes anyone may call, signed in or not: the health check and the account routes. */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/settings',
  'GET /api/auth/me',
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/logout',
]);

const RULES: Record<string, Rule> = {
  'GET /api/health': { request: async () => ({ url: '/api/health' }), success: 200 },
  'GET /api/settings': { request: async () => ({ url: '/api/settings' }), success: 200 },
  'GET /api/auth/me': { request: async () => ({ url: '/api/auth/me' }), success: 200 },
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
  'GET /api/stats': { request: async () => ({ url: '/api/stats' }), success: 200 },
  'GET /api/search': { request: async () => ({ url: '/api/search?q=shop' }), success: 200 },
  'GET /api/audit': { request: async () => ({ url: '/api/audit' }), success: 200 },
  'GET /api/audit/actors': { request: async () => ({ url: '/api/audit/actors' }), success: 200 },
  'POST /api/admin/invites': { request: async () => ({ url: '/api/admin/invites' }), success: 201 },
  'GET /api/admin/invites': { request: async () => ({ url: '/api/admin/invites' }), success: 200 },
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
  const existing = async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/${resource}`,
      headers: d.admin.headers,
      payload: await create(),
    });
    return response.json().id as string;
  };
  RULES[`GET /api/${resource}`] = {
    request: async () => ({ url: `/api/${resource}` }),
    success: 200,
  };
  RULES[`GET /api/${resource}/:id`] = {
    request: async () => ({ url: `/api/${resource}/${await existing()}` }),
    success: 200,
  };
  RULES[`POST /api/${resource}`] = {
    request: async () => ({ url: `/api/${resource}`, payload: await create() }),
    success: 201,
  };
  RULES[`PATCH /api/${resource}/:id`] = {
    request: async () => {
      const id = await existing();
      const field = resource === 'offers' ? 'title' : 'name';
      return { url: `/api/${resource}/${id}`, payload: { [field]: uniqueName('Renamed') } };
    },
    success: 200,
  };
  RULES[`DELETE /api/${resource}/:id`] = {
    request: async () => ({ url: `/api/${resource}/${await existing()}` }),
    success: 204,
  };
}

const SESSION_ENDING = new Set(['POST /api/auth/register', 'POST /api/auth/logout']);

/** Every row of every table, as text: equal before and after means nothing was written. */
async function databaseDigest(): Promise<string> {
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

function asRole(role: Role): SignedIn | null {
  return role === 'anonymous' ? null : role === 'user' ? d.user : d.admin;
}

function send(method: string, as: SignedIn | null, request: { url: string; payload?: unknown }) {
  return t.app.inject({
    method: method as 'GET',
    url: request.url,
    headers: as?.headers ?? {},
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
    (['anonymous', 'user', 'admin'] as const).map((role) => [key, role, rule] as const),
  );
  it.each(cases)('%s as %s', async (key, role, rule) => {
    const method = key.split(' ')[0] ?? 'GET';
    // Registering and logging out end the session they are sent with: use a fresh one, not the
    // shared user's or admin's.
    const as = SESSION_ENDING.has(key) && role !== 'anonymous' ? await signInFresh(role) : asRole(role);
    const request = await rule.request();
    const expected = expectedStatus(key, role, rule);
    const refusedWrite = method !== 'GET' && expected >= 400 && rule.success < 400;
    const before = refusedWrite ? await databaseDigest() : '';
    const response: LightMyRequestResponse = await send(method, as, request);
    expect(response.statusCode, response.body).toBe(expected);
    if (refusedWrite) expect(await databaseDigest()).toBe(before);
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

/** What `role` should get: the success answer if the policy allows it, else 401 (visitor) or 403. */
function expectedStatus(key: string, role: Role, rule: Rule): number {
  const route = t.app.routeTable.find((entry) => `${entry.method} ${entry.url}` === key);
  if (!route?.permission) return rule.success;
  if (role === 'anonymous') return 401;
  const { action, resource } = route.permission;
  return can({ id: 'someone', role }, action, resource) ? rule.success : 403;
}

function signInFresh(role: 'user' | 'admin'): Promise<SignedIn> {
  return registerAs(t.app, role);
}
