// The authorization matrix, generated from the app's own route table: every API route must have a rule
// here (a new route without one fails the first test), and every rule is tried as anonymous, user and
// admin — with the whole database compared before and after each refused write.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  expect: Record<Role, number>;
}

const PUBLIC = (status: number) => ({ anonymous: status, user: status, admin: status });
const SIGNED_IN_READ = { anonymous: 401, user: 200, admin: 200 };
const ADMIN = (status: number) => ({ anonymous: 401, user: 403, admin: status });

const RULES: Record<string, Rule> = {
  'GET /api/health': { request: async () => ({ url: '/api/health' }), expect: PUBLIC(200) },
  'GET /api/auth/me': { request: async () => ({ url: '/api/auth/me' }), expect: PUBLIC(200) },
  'POST /api/auth/register': {
    request: async () => ({
      url: '/api/auth/register',
      payload: { email: uniqueEmail(), password: 'secret1' },
    }),
    expect: PUBLIC(201),
  },
  'POST /api/auth/login': {
    request: async () => ({ url: '/api/auth/login', payload: { email: uniqueEmail(), password: 'secret1' } }),
    expect: PUBLIC(401),
  },
  'POST /api/auth/logout': { request: async () => ({ url: '/api/auth/logout' }), expect: PUBLIC(204) },
  'GET /api/stats': { request: async () => ({ url: '/api/stats' }), expect: ADMIN(200) },
  'POST /api/admin/invites': { request: async () => ({ url: '/api/admin/invites' }), expect: ADMIN(201) },
  'GET /api/admin/invites': { request: async () => ({ url: '/api/admin/invites' }), expect: ADMIN(200) },
  'DELETE /api/admin/invites/:id': {
    request: async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/admin/invites',
        headers: d.admin.headers,
      });
      return { url: `/api/admin/invites/${created.json().invite.id}` };
    },
    expect: ADMIN(204),
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
    expect: SIGNED_IN_READ,
  };
  RULES[`GET /api/${resource}/:id`] = {
    request: async () => ({ url: `/api/${resource}/${await existing()}` }),
    expect: SIGNED_IN_READ,
  };
  RULES[`POST /api/${resource}`] = {
    request: async () => ({ url: `/api/${resource}`, payload: await create() }),
    expect: ADMIN(201),
  };
  RULES[`PATCH /api/${resource}/:id`] = {
    request: async () => {
      const id = await existing();
      const field = resource === 'offers' ? 'title' : 'name';
      return { url: `/api/${resource}/${id}`, payload: { [field]: uniqueName('Renamed') } };
    },
    expect: ADMIN(200),
  };
  RULES[`DELETE /api/${resource}/:id`] = {
    request: async () => ({ url: `/api/${resource}/${await existing()}` }),
    expect: ADMIN(204),
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
    const refusedWrite = method !== 'GET' && rule.expect[role] >= 400 && rule.expect.admin < 400;
    const before = refusedWrite ? await databaseDigest() : '';
    const response: LightMyRequestResponse = await send(method, as, request);
    expect(response.statusCode, response.body).toBe(rule.expect[role]);
    if (refusedWrite) expect(await databaseDigest()).toBe(before);
  });

  it('answers an unknown id on a refused write with the refusal, not a 404', async () => {
    expect((await send('DELETE', d.user, { url: `/api/shops/${unknownId()}` })).statusCode).toBe(403);
  });
});

function signInFresh(role: 'user' | 'admin'): Promise<SignedIn> {
  return registerAs(t.app, role);
}
