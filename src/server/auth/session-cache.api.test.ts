// The session cache (docs/decisions/027): a signed-in request answered from the caches asks the database
// nothing, and every revocation the database notifies holds on the very next request.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Directory, openDirectory } from '../test/catalog-fixtures';
import { createTestApp, registerAs, type SignedIn, type TestApp } from '../test/harness';
import { LISTENER_APPLICATION_NAME, SESSION_CACHE_TTL_MS } from './session-cache';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

const get = (as: SignedIn, url: string) => t.app.inject({ method: 'GET', url, headers: as.headers });
const me = async (as: SignedIn) => (await get(as, '/api/auth/me')).json().user;
/** A change only a signed-in person may make (the directory's reads are a visitor's too: docs/decisions/034). */
const renameSelf = (as: SignedIn) =>
  t.app.inject({
    method: 'PATCH',
    url: '/api/account',
    headers: as.headers,
    payload: { displayName: 'Still me' },
  });
const cache = () => {
  const changes = t.app.sessionChanges;
  if (!changes) throw new Error('the session cache is off');
  return changes.cache;
};

/** Counts every query the app sends, by the pool or on a connection taken from it. */
async function countQueries<T>(run: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const pool = t.database.pool;
  const query = vi.spyOn(pool, 'query');
  const connect = vi.spyOn(pool, 'connect');
  try {
    const result = await run();
    return { result, queries: query.mock.calls.length + connect.mock.calls.length };
  } finally {
    query.mockRestore();
    connect.mockRestore();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the session cache', () => {
  it('answers a signed-in cached read, and the session-checked /me, without asking the database', async () => {
    const shopper = await registerAs(t.app, 'user');
    await d.shop();
    // The first requests fill the caches (the session lookup, then the list).
    for (let i = 0; i < 2; i++) expect((await get(shopper, '/api/shops?pageSize=5')).statusCode).toBe(200);
    const { result, queries } = await countQueries(() =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) => get(shopper, i % 2 ? '/api/shops?pageSize=5' : '/api/auth/me')),
      ),
    );
    expect(result.map((response) => response.statusCode)).toEqual(result.map(() => 200));
    expect(result[0]?.json().user.email).toBe(shopper.user.email);
    expect(queries).toBe(0);
  });

  it('signing out ends that session on the very next request, and only that one', async () => {
    const person = await registerAs(t.app, 'user');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: person.user.email, password: 'secret-password' },
    });
    const cookie = login.cookies.find((c) => c.name === 'mall_session')?.value ?? '';
    const other: SignedIn = { ...person, cookie, headers: { cookie: `mall_session=${cookie}` } };
    for (const as of [person, other]) expect(await me(as)).not.toBeNull();
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: person.headers })).statusCode,
    ).toBe(204);
    expect(await me(person)).toBeNull();
    expect((await renameSelf(person)).statusCode).toBe(401);
    expect((await me(other))?.id).toBe(person.user.id);
  });

  it('a manager removed from a shop, or whose shop is deleted, loses it on the very next request', async () => {
    const [kept, gone] = [await d.shop(), await d.shop()];
    const manager = await d.manager(kept.id);
    const second = await d.call(d.admin, 'POST', `/api/shops/${gone.id}/manager-invites`);
    const code = second.json().invite.code;
    expect((await d.call(manager, 'POST', '/api/manager-invites/accept', { code })).statusCode).toBe(200);
    // The acceptance itself is seen at once (an insert into shop_managers notifies too).
    expect((await me(manager)).managedShopIds.sort()).toEqual([kept.id, gone.id].sort());
    expect((await d.call(manager, 'PATCH', `/api/shops/${kept.id}`, { contact: 'Call us' })).statusCode).toBe(
      200,
    );

    expect(
      (await d.call(d.admin, 'DELETE', `/api/shops/${kept.id}/managers/${manager.user.id}`)).statusCode,
    ).toBe(204);
    expect(
      (await d.call(manager, 'PATCH', `/api/shops/${kept.id}`, { contact: 'Still us?' })).statusCode,
    ).toBe(403);
    expect((await me(manager)).managedShopIds).toEqual([gone.id]);

    expect((await d.call(d.admin, 'DELETE', `/api/shops/${gone.id}`)).statusCode).toBe(204);
    expect((await me(manager)).managedShopIds).toEqual([]);
  });

  it('a role changed or an account deleted in the database holds once its notification is in', async () => {
    const person = await registerAs(t.app, 'user');
    expect((await get(person, '/api/stats')).statusCode).toBe(403);
    await t.database.pool.query("update users set role = 'admin' where id = $1", [person.user.id]);
    await t.settle();
    expect((await get(person, '/api/stats')).statusCode).toBe(200);
    expect((await me(person)).role).toBe('admin');
    await t.database.pool.query('delete from users where id = $1', [person.user.id]);
    await t.settle();
    expect(await me(person)).toBeNull();
  });

  it('forgets everything when its link to the notifications is lost, and caches again once back', async () => {
    const person = await registerAs(t.app, 'user');
    expect(await me(person)).not.toBeNull();
    const pool = t.database.pool;
    // A revocation whose notification never comes (its trigger off): the cache still answers — which
    // proves it is used — until the link is lost.
    await pool.query('alter table sessions disable trigger sessions_mall_cache_delete');
    try {
      await pool.query('delete from sessions where user_id = $1', [person.user.id]);
    } finally {
      await pool.query('alter table sessions enable trigger sessions_mall_cache_delete');
    }
    expect((await countQueries(() => me(person))).result).not.toBeNull();

    const clears = cache().clears;
    // The listening connection, ended by the server (a restart, a network cut, a failover).
    const ended = await pool.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()',
      [LISTENER_APPLICATION_NAME],
    );
    expect(ended.rowCount).toBe(1);
    await until(() => cache().clears > clears, 'the cache is cleared');
    expect(await me(person)).toBeNull();

    // Back: a new session is cached again.
    await until(() => cache().active, 'listening again');
    const again = await registerAs(t.app, 'user');
    expect(await me(again)).not.toBeNull();
    await until(() => cache().catalogVersion() !== null, 'the catalogue version is known');
    const { result, queries } = await countQueries(() => me(again));
    expect(result?.id).toBe(again.user.id);
    expect(queries).toBe(0);
    // …and revoked again by the notifications.
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: again.headers });
    expect(await me(again)).toBeNull();
  });

  it('a write transaction longer than its bound does not make cached signed-in reads wait, and its commit revokes at once', async () => {
    const shopper = await registerAs(t.app, 'user');
    const leaving = await registerAs(t.app, 'user');
    await d.shop();
    for (const as of [shopper, shopper, leaving])
      expect((await get(as, '/api/shops?pageSize=5')).statusCode).toBe(200);
    // A long write (an import's publish): it signs someone out too.
    const writer = await t.database.pool.connect();
    let read: ReturnType<typeof get> | undefined;
    try {
      await writer.query('begin');
      await writer.query('delete from sessions where user_id = $1', [leaving.user.id]);
      await sleep(SESSION_CACHE_TTL_MS + 500);
      const { result, queries } = await countQueries(async () => {
        read = get(shopper, '/api/shops?pageSize=5');
        return Promise.race([read, sleep(2_000).then(() => 'still waiting' as const)]);
      });
      // Other connections could commit: past the bound, the read asks the database, on one of them.
      expect(result === 'still waiting' ? result : result.statusCode).toBe(200);
      expect(queries).toBeGreaterThan(0);
      await writer.query('commit');
    } finally {
      writer.release();
    }
    expect((await read)?.statusCode).toBe(200);
    await t.settle();
    expect(await me(leaving)).toBeNull();
    expect((await renameSelf(leaving)).statusCode).toBe(401);
    expect((await me(shopper))?.id).toBe(shopper.user.id);
  });
});
