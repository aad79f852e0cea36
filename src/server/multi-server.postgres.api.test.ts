// Several servers, one PostgreSQL: two real servers on two ports, started at the same moment on one
// empty database (migrations and the demo mall), then driven over HTTP. Each server caches reads.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AUTH_MESSAGES } from '../shared/errors';
import { buildApp } from './app';
import { SESSION_COOKIE } from './auth/sessions';
import type { Database } from './db/client';
import { parseEnv } from './env';
import { openConfiguredDatabase } from './start';
import { databaseUrlFor } from './test/global-setup';
import { OPERATOR_CODE, TEST_TIME_ZONE, uniqueEmail } from './test/harness';

interface Server {
  app: FastifyInstance;
  opened: Database;
  url: string;
}

const quiet = { info: () => {} };

async function startServer(databaseUrl: string): Promise<Server> {
  const env = parseEnv({ DATABASE_URL: databaseUrl, MALL_DEMO_DATA: 'on', MALL_TIMEZONE: TEST_TIME_ZONE });
  const opened = await openConfiguredDatabase(env, quiet);
  const app = await buildApp({
    maxEventLoopDelayMs: 0, // no event-loop check, as createTestApp (test/harness.ts)
    database: opened,
    timeZone: TEST_TIME_ZONE,
    operatorInviteCode: OPERATOR_CODE,
    passwordHashing: 'fast-for-tests', // as createTestApp
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, opened, url: `http://127.0.0.1:${port}` };
}

async function call(server: Server, method: string, path: string, cookie?: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const setCookie = response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return {
    status: response.status,
    json: text ? JSON.parse(text) : null,
    cookie: setCookie?.slice(SESSION_COOKIE.length + 1).split(';')[0],
  };
}

/**
 * Another server learns of a change when the database's notification reaches it (docs/decisions/027):
 * milliseconds after the commit, so the first request there may still be answered before it arrives.
 * Asks again until `check` holds, at most `boundMs`; fails beyond it.
 */
async function eventually(check: () => Promise<boolean>, what: string, boundMs = 1_000): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > boundMs) throw new Error(`not within ${boundMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

// PostgreSQL only (vitest.config.ts): an embedded data directory belongs to one server process.
describe('two servers on one PostgreSQL', () => {
  const serverUrl = inject('postgresUrl');
  const name = `mall_two_${randomBytes(4).toString('hex')}`;
  let a: Server;
  let b: Server;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    // The same moment, one empty database: both migrate, both try to load the demo mall.
    [a, b] = await Promise.all([
      startServer(databaseUrlFor(serverUrl, name)),
      startServer(databaseUrlFor(serverUrl, name)),
    ]);
  });
  afterAll(async () => {
    for (const server of [a, b]) {
      await server?.app.close();
      await server?.opened.close();
    }
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('both start at once on an empty database: migrated once, one demo mall', async () => {
    const pool = a.opened.pool;
    const migrations = await pool.query('select count(*)::int as n from drizzle.__drizzle_migrations');
    const { default: journal } = await import('./db/migrations/meta/_journal.json', {
      with: { type: 'json' },
    });
    expect(migrations.rows[0].n).toBe(journal.entries.length);
    const shops = await pool.query('select count(*)::int as n from shops');
    expect(shops.rows[0].n).toBe(24);
    for (const server of [a, b]) expect((await call(server, 'GET', '/api/health')).status).toBe(200);
  });

  it('a session made on one server works on the other, and signing out on one ends it on both', async () => {
    const registered = await call(a, 'POST', '/api/auth/register', undefined, {
      email: uniqueEmail('two'),
      password: 'secret-password',
      role: 'user',
    });
    expect(registered.status).toBe(201);
    const me = await call(b, 'GET', '/api/auth/me', registered.cookie);
    expect(me.json.user.email).toBe(registered.json.user.email);
    expect((await call(b, 'GET', '/api/shops', registered.cookie)).status).toBe(200);
    // Both servers have the session cached now.
    expect((await call(a, 'GET', '/api/shops', registered.cookie)).status).toBe(200);
    expect((await call(b, 'POST', '/api/auth/logout', registered.cookie)).status).toBeLessThan(300);
    // The server that signed out: on the very next request (a visitor, who still reads the directory).
    expect((await call(b, 'GET', '/api/auth/me', registered.cookie)).json.user).toBeNull();
    expect((await call(b, 'GET', '/api/shops', registered.cookie)).status).toBe(200);
    // The other: as soon as the notification is in.
    await eventually(
      async () => (await call(a, 'GET', '/api/auth/me', registered.cookie)).json.user === null,
      'signed out on the other server',
    );
  });

  it('a role changed in the database reaches both servers within the bound', async () => {
    const person = await call(a, 'POST', '/api/auth/register', undefined, {
      email: uniqueEmail('two-role'),
      password: 'secret-password',
      role: 'user',
    });
    for (const server of [a, b])
      expect((await call(server, 'GET', '/api/stats', person.cookie)).status).toBe(403);
    await a.opened.pool.query("update users set role = 'admin' where id = $1", [person.json.user.id]);
    for (const server of [a, b])
      await eventually(
        async () => (await call(server, 'GET', '/api/stats', person.cookie)).status === 200,
        'the new role',
      );
    await a.opened.pool.query("update users set role = 'user' where id = $1", [person.json.user.id]);
    for (const server of [a, b])
      await eventually(
        async () => (await call(server, 'GET', '/api/stats', person.cookie)).status === 403,
        'the role taken back',
      );
  });

  it('a write through one server is visible at once through it, and within milliseconds through the other', async () => {
    const admin = await registerAdmin(a, 'two-admin');
    const cookie = admin.cookie;
    const first = (await call(b, 'GET', '/api/shops?pageSize=1', cookie)).json.items[0];
    // Warm both servers' caches with the shop and the list.
    for (const server of [a, b]) {
      await call(server, 'GET', `/api/shops/${first.id}`, cookie);
      await call(server, 'GET', '/api/shops?pageSize=1', cookie);
    }
    for (let round = 1; round <= 5; round++) {
      const renamed = `${first.name} (${round})`;
      const [writer, reader] = round % 2 ? [a, b] : [b, a];
      expect((await call(writer, 'PATCH', `/api/shops/${first.id}`, cookie, { name: renamed })).status).toBe(
        200,
      );
      // The writer: on the very next request; the reader: once the notification is in.
      expect((await call(writer, 'GET', `/api/shops/${first.id}`, cookie)).json.name).toBe(renamed);
      await eventually(
        async () => (await call(reader, 'GET', `/api/shops/${first.id}`, cookie)).json.name === renamed,
        'the new name on the other server',
      );
      expect(
        (await call(reader, 'GET', `/api/shops?q=${encodeURIComponent(renamed)}`, cookie)).json.total,
      ).toBe(1);
    }
    const created = await call(a, 'POST', '/api/categories', cookie, { name: `Two Servers ${round()}` });
    expect(created.status).toBe(201);
    await eventually(
      async () =>
        (await call(b, 'GET', '/api/categories', cookie)).json.items.some(
          (c: { name: string }) => c.name === created.json.name,
        ),
      'the new category on the other server',
    );
    expect((await call(b, 'DELETE', `/api/categories/${created.json.id}`, cookie)).status).toBe(204);
    await eventually(
      async () =>
        !(await call(a, 'GET', '/api/categories', cookie)).json.items.some(
          (c: { id: string }) => c.id === created.json.id,
        ),
      'the category gone on the other server',
    );
  });

  it('a shop manager removed through one server is refused there at once, and on the other once notified', async () => {
    const admin = await registerAdmin(a, 'two-admin');
    const shop = (await call(b, 'GET', '/api/shops?pageSize=1', admin.cookie)).json.items[0];
    const invite = await call(a, 'POST', `/api/shops/${shop.id}/manager-invites`, admin.cookie);
    expect(invite.status).toBe(201);
    const manager = await call(b, 'POST', '/api/auth/register', undefined, {
      email: uniqueEmail('two-manager'),
      password: 'secret-password',
      role: 'user',
    });
    const accepted = await call(b, 'POST', '/api/manager-invites/accept', manager.cookie, {
      code: invite.json.invite.code,
    });
    expect(accepted.status).toBe(200);
    // Both servers have let the manager in (and have read their session).
    for (const server of [a, b]) {
      const saved = await call(server, 'PATCH', `/api/shops/${shop.id}`, manager.cookie, {
        contact: 'Call us',
      });
      expect(saved.status).toBe(200);
    }
    const removed = await call(
      a,
      'DELETE',
      `/api/shops/${shop.id}/managers/${manager.json.user.id}`,
      admin.cookie,
    );
    expect(removed.status).toBe(204);
    // The server that removed them: on the very next request.
    expect((await call(a, 'PATCH', `/api/shops/${shop.id}`, manager.cookie, { contact: 'No' })).status).toBe(
      403,
    );
    // The other: once the notification is in (a refused write changes nothing, so asking again is safe).
    await eventually(
      async () =>
        (await call(b, 'PATCH', `/api/shops/${shop.id}`, manager.cookie, { contact: 'Still us?' })).status ===
        403,
      'the removal on the other server',
    );
    expect((await call(b, 'GET', '/api/auth/me', manager.cookie)).json.user.managedShopIds).toEqual([]);
  });

  it("a synonym added through one server is used by the other's search once notified, and its removal too", async () => {
    const admin = await registerAdmin(a, 'two-synonym');
    const cookie = admin.cookie;
    const shop = (await call(b, 'GET', '/api/shops?pageSize=1', cookie)).json.items[0];
    const word =
      String(shop.name)
        .toLowerCase()
        .split(/[^a-z]+/)
        .find((part) => part.length >= 3) ?? '';
    const term = `zqxj${round()}`;
    const finds = async (server: Server, q: string) =>
      (await call(server, 'GET', `/api/search?q=${encodeURIComponent(q)}`, cookie)).json.shops.items.some(
        (s: { id: string }) => s.id === shop.id,
      );
    expect(await finds(b, word)).toBe(true);
    // The other server has searched (and read the synonyms for its directory version) before the write.
    expect(await finds(b, term)).toBe(false);

    const added = await call(a, 'POST', '/api/synonyms', cookie, { term, replacement: word });
    expect(added.status).toBe(201);
    expect(await finds(a, term)).toBe(true);
    await eventually(() => finds(b, term), 'the synonym used by the other server');

    expect((await call(b, 'DELETE', `/api/synonyms/${added.json.id}`, cookie)).status).toBe(204);
    expect(await finds(b, term)).toBe(false);
    await eventually(async () => !(await finds(a, term)), 'the synonym gone on the other server');
  });

  it('a lockout counted on one server holds on the other', async () => {
    const email = uniqueEmail('two-lock');
    expect(
      (
        await call(a, 'POST', '/api/auth/register', undefined, {
          email,
          password: 'right-password',
          role: 'user',
        })
      ).status,
    ).toBe(201);
    for (let attempt = 0; attempt < 5; attempt++) {
      const server = attempt % 2 ? a : b;
      const wrong = await call(server, 'POST', '/api/auth/login', undefined, {
        email,
        password: 'wrong-password',
      });
      expect(wrong.status).toBe(401);
    }
    for (const server of [a, b]) {
      const locked = await call(server, 'POST', '/api/auth/login', undefined, {
        email,
        password: 'right-password',
      });
      expect(locked.status).toBe(429);
      expect(locked.json.error.message).toBe(AUTH_MESSAGES.locked);
    }
  });
});

const round = () => randomBytes(3).toString('hex');

/** A new admin, registered through `server` with the operator's code (201 checked). */
async function registerAdmin(server: Server, prefix: string) {
  const admin = await call(server, 'POST', '/api/auth/register', undefined, {
    email: uniqueEmail(prefix),
    password: 'secret-password',
    role: 'admin',
    inviteCode: OPERATOR_CODE,
  });
  expect(admin.status).toBe(201);
  return admin;
}
