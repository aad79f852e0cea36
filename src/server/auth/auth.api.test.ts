import { scryptSync } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES, INVITE_MESSAGES } from '../../shared/errors';
import { adminInvites, sessions, users } from '../db/schema';
import { mallToday } from '../lib/mall-time';
import { prepareSetupCode } from '../modules/accounts/invites';
import {
  createTestApp,
  login,
  OPERATOR_CODE,
  QueueWithAHook,
  registerAs,
  TEST_TIME_ZONE,
  type TestApp,
  uniqueEmail,
} from '../test/harness';
import { hashPassword, PASSWORD_COSTS, verifyPassword } from './passwords';
import { createSessionResolver, type ResolvedSession, SESSION_COOKIE } from './sessions';
import { sha256 } from './tokens';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const register = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/register', payload });
const signIn = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
const me = (cookie?: string) =>
  t.app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {},
  });
const userCount = async () =>
  (await t.database.pool.query<{ n: number }>('select count(*)::int as n from users')).rows[0]?.n;

describe('registration', () => {
  it('creates a user, signs them in and returns the session user', async () => {
    const email = uniqueEmail('new');
    const response = await register({ email, password: 'hunter22' });
    expect(response.statusCode).toBe(201);
    const { user } = response.json();
    expect(user).toMatchObject({ email, role: 'user', displayName: null, lastLogin: null });
    expect(Date.parse(user.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(response.headers['cache-control']).toBe('no-store');
    expect((await me(cookie?.value)).json().user).toEqual(user);

    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    // This suite's app hashes at the harness's test cost; the app's own default is the next test's.
    expect(row?.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(row?.passwordHash).not.toContain('hunter22');
  });

  it("hashes at OWASP's cost when not told otherwise (MALL_PASSWORD_HASHING unset), and signs in with it", async () => {
    const standard = await createTestApp({ passwordHashing: undefined });
    try {
      const email = uniqueEmail('owasp');
      const response = await standard.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, password: 'hunter22' },
      });
      expect(response.statusCode).toBe(201);
      const [row] = await standard.database.db.select().from(users).where(eq(users.email, email));
      expect(row?.passwordHash).toMatch(/^scrypt\$32768\$8\$3\$/);
      expect((await login(standard.app, email, 'hunter22')).user.email).toBe(email);
    } finally {
      await standard.close();
    }
  });

  it('stores the email trimmed and lower-cased, and refuses it again in any case', async () => {
    const email = uniqueEmail('Case');
    expect(
      (await register({ email: `  ${email.toUpperCase()} `, password: 'secret1' })).json().user.email,
    ).toBe(email.toLowerCase());
    const before = await userCount();
    const again = await register({ email: email.toUpperCase(), password: 'secret1' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'EMAIL_IN_USE', message: AUTH_MESSAGES.emailInUse });
    expect(await userCount()).toBe(before);
  });

  it.each([
    [{ email: 'bad@nodot', password: 'secret1' }, 'email', AUTH_MESSAGES.invalidEmail],
    [{ email: 'not an email', password: 'secret1' }, 'email', AUTH_MESSAGES.invalidEmail],
    [{ email: '', password: 'secret1' }, 'email', 'Email is required'],
    [{ password: 'secret1' }, 'email', 'Email is required'],
    [{ email: 'ok@example.com', password: '12345' }, 'password', AUTH_MESSAGES.weakPassword],
    [{ email: 'ok@example.com', password: '' }, 'password', 'Password is required'],
    [
      { email: 'ok@example.com', password: 'x'.repeat(129) },
      'password',
      'Password must be at most 128 characters',
    ],
    [{ email: 'ok@example.com', password: 'secret1', role: 'superuser' }, 'role', 'Choose User or Admin'],
  ])('refuses %j with the form message, creating nothing', async (payload, field, message) => {
    const before = await userCount();
    const response = await register(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
    expect(response.json().error.fields[field]).toBe(message);
    expect(await userCount()).toBe(before);
  });

  it('refuses unknown fields, so no payload can smuggle in a role or other columns', async () => {
    const email = uniqueEmail('smuggle');
    for (const extra of [{ isAdmin: true }, { passwordHash: 'x' }, { lastLogin: null }]) {
      const response = await register({ email, password: 'secret1', ...extra });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION');
    }
    expect((await signIn({ email, password: 'secret1' })).json().error.message).toBe(
      AUTH_MESSAGES.userNotFound,
    );
  });

  it('accepts a 128-character password and a 6-character one', async () => {
    expect((await register({ email: uniqueEmail(), password: 'p'.repeat(128) })).statusCode).toBe(201);
    expect((await register({ email: uniqueEmail(), password: 'sixsix' })).statusCode).toBe(201);
  });

  it('salts every hash: the same password gives two different hashes', async () => {
    const a = await registerAs(t.app, 'user', { password: 'same-password' });
    const b = await registerAs(t.app, 'user', { password: 'same-password' });
    const hashOf = async (id: string) =>
      (await t.database.db.select().from(users).where(eq(users.id, id)))[0]?.passwordHash;
    expect(await hashOf(a.user.id)).not.toBe(await hashOf(b.user.id));
  });
});

describe('admin accounts need an invite code', () => {
  it('refuses Admin without a code or with a wrong one, and creates no account', async () => {
    const email = uniqueEmail('would-be-admin');
    const before = await userCount();
    const none = await register({ email, password: 'secret1', role: 'admin' });
    expect(none.statusCode).toBe(403);
    expect(none.json().error).toMatchObject({ code: 'INVITE_REQUIRED', message: INVITE_MESSAGES.required });
    const wrong = await register({
      email,
      password: 'secret1',
      role: 'admin',
      inviteCode: 'WRONG-CODE-0000',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error).toMatchObject({ code: 'INVITE_INVALID', message: INVITE_MESSAGES.invalid });
    expect(await userCount()).toBe(before);
  });

  it("accepts the operator's code any number of times", async () => {
    for (let i = 0; i < 2; i++) {
      const { user } = await registerAs(t.app, 'admin', { inviteCode: OPERATOR_CODE });
      expect(user.role).toBe('admin');
    }
  });

  it('accepts an invite made by an admin exactly once, in any letter case', async () => {
    const admin = await registerAs(t.app, 'admin');
    const created = await t.app.inject({ method: 'POST', url: '/api/admin/invites', headers: admin.headers });
    expect(created.statusCode).toBe(201);
    const { code, codeHint } = created.json().invite;
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(code.replaceAll('-', '').endsWith(codeHint)).toBe(true);

    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/invites', headers: admin.headers });
    expect(listed.json().invites.map((i: { codeHint: string }) => i.codeHint)).toContain(codeHint);
    expect(JSON.stringify(listed.json())).not.toContain(code);

    const first = await registerAs(t.app, 'admin', { inviteCode: code.toLowerCase() });
    expect(first.user.role).toBe('admin');
    const second = await register({
      email: uniqueEmail(),
      password: 'secret1',
      role: 'admin',
      inviteCode: code,
    });
    expect(second.json().error.code).toBe('INVITE_INVALID');
    const after = await t.app.inject({ method: 'GET', url: '/api/admin/invites', headers: admin.headers });
    expect(after.json().invites.map((i: { codeHint: string }) => i.codeHint)).not.toContain(codeHint);
  });

  it('refuses a revoked invite and an expired one', async () => {
    const admin = await registerAs(t.app, 'admin');
    const make = async () =>
      (await t.app.inject({ method: 'POST', url: '/api/admin/invites', headers: admin.headers })).json()
        .invite;
    const revoked = await make();
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/invites/${revoked.id}`,
      headers: admin.headers,
    });
    expect(revoke.statusCode).toBe(204);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/admin/invites/${revoked.id}`,
          headers: admin.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await register({ email: uniqueEmail(), password: 'secret1', role: 'admin', inviteCode: revoked.code }))
        .statusCode,
    ).toBe(403);

    const expiring = await make();
    await t.database.db
      .update(adminInvites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(adminInvites.id, expiring.id));
    const late = await register({
      email: uniqueEmail(),
      password: 'secret1',
      role: 'admin',
      inviteCode: expiring.code,
    });
    expect(late.json().error.code).toBe('INVITE_INVALID');
  });

  it('lets only admins manage invites', async () => {
    const user = await registerAs(t.app, 'user');
    for (const [method, url] of [
      ['POST', '/api/admin/invites'],
      ['GET', '/api/admin/invites'],
      ['DELETE', '/api/admin/invites/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
      expect((await t.app.inject({ method, url, headers: user.headers })).statusCode).toBe(403);
    }
    const count = async () =>
      (await t.database.pool.query('select count(*)::int as n from admin_invites')).rows[0].n;
    const before = await count();
    await t.app.inject({ method: 'POST', url: '/api/admin/invites', headers: user.headers });
    expect(await count()).toBe(before);
  });
});

describe('invite responses', () => {
  it('are never cached (Cache-Control: no-store): they carry invite codes', async () => {
    const admin = await registerAs(t.app, 'admin');
    const created = await t.app.inject({ method: 'POST', url: '/api/admin/invites', headers: admin.headers });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/invites', headers: admin.headers });
    expect(listed.headers['cache-control']).toBe('no-store');
  });
});

describe('the setup code', () => {
  it('makes the first admin once, and is not offered when an admin exists', async () => {
    const fresh = await createTestApp({ operatorInviteCode: undefined });
    try {
      const code = await prepareSetupCode(fresh.database.db, undefined, new Date());
      expect(code).toMatch(/^[A-Z2-9]{4}-/);
      // A restart replaces it: the old one stops working.
      const replaced = await prepareSetupCode(fresh.database.db, undefined, new Date());
      const stale = await fresh.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: uniqueEmail(), password: 'secret1', role: 'admin', inviteCode: code },
      });
      expect(stale.statusCode).toBe(403);
      const first = await fresh.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: uniqueEmail(), password: 'secret1', role: 'admin', inviteCode: replaced },
      });
      expect(first.statusCode).toBe(201);
      expect(first.json().user.role).toBe('admin');
      expect(await prepareSetupCode(fresh.database.db, undefined, new Date())).toBeNull();
      // With an operator code set, no setup code is made even without an admin.
      expect(await prepareSetupCode(fresh.database.db, OPERATOR_CODE, new Date())).toBeNull();
    } finally {
      await fresh.close();
    }
  });

  it('refuses a leftover setup code once an admin exists (made by npm run admin:create)', async () => {
    const fresh = await createTestApp({ operatorInviteCode: undefined });
    try {
      const code = await prepareSetupCode(fresh.database.db, undefined, new Date());
      // What scripts/admin-create.ts does: an admin row, the setup code left as it was.
      await fresh.database.db
        .insert(users)
        .values({ email: uniqueEmail('operator'), role: 'admin', passwordHash: 'not-used' });
      const email = uniqueEmail('second-admin');
      const late = await fresh.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, password: 'secret1', role: 'admin', inviteCode: code },
      });
      expect(late.statusCode).toBe(403);
      expect(late.json().error.code).toBe('INVITE_INVALID');
      expect(await fresh.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe('sign-in', () => {
  it('tells an unknown email from a wrong password, with the catalogue messages', async () => {
    const unknown = await signIn({ email: uniqueEmail('nobody'), password: 'secret1' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toMatchObject({
      code: 'EMAIL_NOT_FOUND',
      message: AUTH_MESSAGES.userNotFound,
    });

    const { user } = await registerAs(t.app, 'user', { password: 'right-password' });
    const wrong = await signIn({ email: user.email, password: 'wrong-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toMatchObject({
      code: 'WRONG_PASSWORD',
      message: AUTH_MESSAGES.wrongPassword,
    });
    expect(wrong.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  });

  it('validates the body with the form messages', async () => {
    const bad = await signIn({ email: 'bad@nodot', password: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(AUTH_MESSAGES.invalidEmail);
    const empty = await signIn({ email: 'a@example.com', password: '' });
    expect(empty.json().error.fields.password).toBe('Password is required');
    const extra = await signIn({ email: 'a@example.com', password: 'secret1', role: 'admin' });
    expect(extra.statusCode).toBe(400);
  });

  it('sets lastLogin, ignores email case and gives a new token at every sign-in', async () => {
    const { user, cookie: registered } = await registerAs(t.app, 'user', { password: 'secret1' });
    const first = await login(t.app, user.email.toUpperCase(), 'secret1');
    expect(first.user.id).toBe(user.id);
    expect(Date.parse(first.user.lastLogin ?? '')).toBeGreaterThan(Date.now() - 60_000);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.lastLogin?.toISOString()).toBe(first.user.lastLogin);

    const second = await login(t.app, user.email, 'secret1');
    expect(second.cookie).not.toBe(first.cookie);
    expect((await me(first.cookie)).json().user.id).toBe(user.id);
    expect((await me(registered)).json().user.id).toBe(user.id);
  });

  it('checks a password with the scrypt parameters stored in its hash, not the current ones', async () => {
    const email = uniqueEmail('old-hash');
    const salt = Buffer.from('0123456789abcdef');
    const N = 2 ** 14;
    const key = scryptSync('older-password', salt, 32, { N, r: 8, p: 1 });
    const passwordHash = ['scrypt', N, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    await t.database.db.insert(users).values({ email, role: 'user', passwordHash });
    expect((await signIn({ email, password: 'older-password' })).statusCode).toBe(200);
    // Stronger than this server's cost in N: kept as it is, never made cheaper.
    const [kept] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(kept?.passwordHash).toBe(passwordHash);
  });

  it('hashes a password stored at less than the current cost again at sign-in, and only at a right one', async () => {
    const email = uniqueEmail('cheap-hash');
    const cheap = await hashPassword('cheap-password', { N: 16, r: 8, p: 1 });
    await t.database.db.insert(users).values({ email, role: 'user', passwordHash: cheap });
    const stored = async () =>
      (await t.database.db.select().from(users).where(eq(users.email, email)))[0]?.passwordHash ?? '';

    expect((await signIn({ email, password: 'not-the-password' })).statusCode).toBe(401);
    expect(await stored()).toBe(cheap);

    expect((await signIn({ email, password: 'cheap-password' })).statusCode).toBe(200);
    const rehashed = await stored();
    // This app's cost (the test harness's fast-for-tests), and a fresh salt.
    const { N, r, p } = PASSWORD_COSTS['fast-for-tests'];
    expect(rehashed.startsWith(`scrypt$${N}$${r}$${p}$`)).toBe(true);
    expect(rehashed.split('$')[4]).not.toBe(cheap.split('$')[4]);
    expect(await verifyPassword('cheap-password', rehashed)).toBe(true);
    expect((await signIn({ email, password: 'cheap-password' })).statusCode).toBe(200);
    expect(await stored()).toBe(rehashed);
  });

  describe('a password change between the check and the sign-in', () => {
    const queue = new QueueWithAHook(1, 8);
    let racing: TestApp;
    beforeAll(async () => {
      racing = await createTestApp({ hashQueue: queue });
    });
    afterAll(async () => {
      await racing?.close();
    });

    it.each([
      ['a cheaper stored hash (rehashed at sign-in)', 16, 1],
      [
        "a hash at the app's cost (no rehash)",
        PASSWORD_COSTS['fast-for-tests'].N,
        PASSWORD_COSTS['fast-for-tests'].p,
      ],
    ])('is neither undone nor followed by a session for the old password: %s', async (_kind, N, p) => {
      const email = uniqueEmail('racing');
      const oldHash = await hashPassword('old-password', { N, r: 8, p });
      await racing.database.db.insert(users).values({ email, role: 'user', passwordHash: oldHash });
      const changed = await hashPassword('new-password', PASSWORD_COSTS['fast-for-tests']);
      // The person changes the password in another browser while this sign-in's check runs.
      queue.afterTask = async () => {
        await racing.database.db.update(users).set({ passwordHash: changed }).where(eq(users.email, email));
      };
      const late = await racing.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'old-password' },
      });
      expect(late.statusCode).toBe(401);
      expect(late.json().error).toMatchObject({
        code: 'WRONG_PASSWORD',
        message: AUTH_MESSAGES.wrongPassword,
      });
      expect(late.cookies.find((cookie) => cookie.name === SESSION_COOKIE)).toBeUndefined();
      const [row] = await racing.database.db.select().from(users).where(eq(users.email, email));
      expect(row?.passwordHash).toBe(changed);
      expect(row?.lastLogin).toBeNull();
      expect((await login(racing.app, email, 'new-password')).user.email).toBe(email);
    });

    it('lets two sign-ins with the right password at once both in while the first rehashes', async () => {
      const email = uniqueEmail('twice');
      const cheap = await hashPassword('right-password', { N: 16, r: 8, p: 1 });
      await racing.database.db.insert(users).values({ email, role: 'user', passwordHash: cheap });
      // Right after the first one's check (its slot in the queue given back), a second sign-in runs
      // from start to end: it checks the same cheap hash, rehashes it and writes. The first one then
      // writes second and finds a new hash of the same password.
      let secondAnswer: Promise<{ statusCode: number }> | undefined;
      queue.afterTask = async () => {
        secondAnswer = racing.app
          .inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'right-password' } })
          .then((response) => response);
        await secondAnswer;
      };
      const first = await racing.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'right-password' },
      });
      expect(first.statusCode, first.body).toBe(200);
      expect((await secondAnswer)?.statusCode).toBe(200);
      const [row] = await racing.database.db.select().from(users).where(eq(users.email, email));
      expect(row?.passwordHash.startsWith('scrypt$1024$8$1$')).toBe(true);
    });
  });

  it('replaces the session the browser already had (no session fixation)', async () => {
    const { user, cookie: old } = await registerAs(t.app, 'user', { password: 'secret1' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'secret1' },
      headers: { cookie: `${SESSION_COOKIE}=${old}` },
    });
    expect(response.statusCode).toBe(200);
    expect((await me(old)).json().user).toBeNull();
    const rows = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(old)));
    expect(rows).toHaveLength(0);
  });
});

describe('lockout', () => {
  it('locks an email after 5 failures in 15 minutes, right password included, then lets it in after 15 minutes', async () => {
    const { user } = await registerAs(t.app, 'user', { password: 'right-password' });
    for (let i = 0; i < 5; i++) {
      expect((await signIn({ email: user.email, password: `wrong-${i}` })).json().error.code).toBe(
        'WRONG_PASSWORD',
      );
    }
    const locked = await signIn({ email: user.email, password: 'right-password' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toMatchObject({ code: 'LOCKED', message: AUTH_MESSAGES.locked });
    expect(locked.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    t.advanceClock(14 * 60 * 1000);
    expect((await signIn({ email: user.email, password: 'right-password' })).statusCode).toBe(429);
    t.advanceClock(2 * 60 * 1000);
    const after = await signIn({ email: user.email, password: 'right-password' });
    expect(after.statusCode).toBe(200);
    // A success starts the count again.
    expect((await signIn({ email: user.email, password: 'wrong' })).json().error.code).toBe('WRONG_PASSWORD');
    expect((await signIn({ email: user.email, password: 'right-password' })).statusCode).toBe(200);
  });

  it('does not count failures older than 15 minutes', async () => {
    const { user } = await registerAs(t.app, 'user', { password: 'right-password' });
    for (let i = 0; i < 4; i++) await signIn({ email: user.email, password: 'wrong' });
    t.advanceClock(16 * 60 * 1000);
    for (let i = 0; i < 4; i++) await signIn({ email: user.email, password: 'wrong' });
    expect((await signIn({ email: user.email, password: 'right-password' })).statusCode).toBe(200);
  });

  it('counts unknown emails too, and locks only that email', async () => {
    const ghost = uniqueEmail('ghost');
    for (let i = 0; i < 5; i++) await signIn({ email: ghost, password: 'whatever' });
    expect((await signIn({ email: ghost, password: 'whatever' })).json().error.code).toBe('LOCKED');
    const { user } = await registerAs(t.app, 'user', { password: 'secret1' });
    expect((await signIn({ email: user.email, password: 'secret1' })).statusCode).toBe(200);
  });

  it('holds for concurrent failures (the count is one atomic statement)', async () => {
    const { user } = await registerAs(t.app, 'user', { password: 'right-password' });
    await Promise.all(Array.from({ length: 5 }, () => signIn({ email: user.email, password: 'wrong' })));
    expect((await signIn({ email: user.email, password: 'right-password' })).statusCode).toBe(429);
  });
});

describe('sessions', () => {
  it('signs out: the session row is deleted and the cookie no longer works', async () => {
    const { cookie, headers } = await registerAs(t.app, 'user');
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers });
    expect(out.statusCode).toBe(204);
    const cleared = out.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cleared?.value).toBe('');
    expect((await me(cookie)).json()).toEqual({ user: null });
    const rows = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(cookie)));
    expect(rows).toHaveLength(0);
  });

  it('answers /me with null when signed out or with an unknown token', async () => {
    expect((await me()).json()).toEqual({ user: null });
    expect((await me('made-up-token')).json()).toEqual({ user: null });
  });

  it('stores only the SHA-256 of a long random token, never the token itself', async () => {
    const { user, cookie } = await registerAs(t.app, 'user');
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows.map((row) => row.tokenHash)).toEqual([sha256(cookie)]);
  });

  it('ends a session 30 days after sign-in, even one used every day', async () => {
    const { cookie } = await registerAs(t.app, 'user');
    for (let day = 1; day < 30; day++) {
      t.advanceClock(24 * 60 * 60 * 1000);
      expect((await me(cookie)).json().user).not.toBeNull();
    }
    t.advanceClock(24 * 60 * 60 * 1000);
    expect((await me(cookie)).json().user).toBeNull();
  });

  it('marks the session cookie Secure over HTTPS, and only there', async () => {
    const proxied = await createTestApp({ trustProxy: '127.0.0.1' });
    try {
      const registerOver = (proto: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          headers: { 'x-forwarded-proto': proto },
          payload: { email: uniqueEmail(), password: 'secret1' },
        });
      const cookieOf = (response: Awaited<ReturnType<typeof registerOver>>) =>
        response.cookies.find((c) => c.name === SESSION_COOKIE);
      expect(cookieOf(await registerOver('https'))?.secure).toBe(true);
      expect(cookieOf(await registerOver('http'))?.secure).toBeFalsy();
    } finally {
      await proxied.close();
    }
  });

  it('ends a session after 7 idle days, but not while it is used', async () => {
    const { cookie: idle } = await registerAs(t.app, 'user');
    const { cookie: active } = await registerAs(t.app, 'user');
    for (let day = 0; day < 8; day++) {
      t.advanceClock(24 * 60 * 60 * 1000);
      expect((await me(active)).json().user).not.toBeNull();
    }
    expect((await me(idle)).json().user).toBeNull();
  });

  it('ends every session of a deleted account at once', async () => {
    const { user, cookie } = await registerAs(t.app, 'user');
    expect((await me(cookie)).json().user).not.toBeNull();
    await t.database.db.delete(users).where(eq(users.id, user.id));
    // Deleted outside the app: at once once the database's notification is in (docs/decisions/027).
    await t.settle();
    expect((await me(cookie)).json().user).toBeNull();
  });

  it('keeps the role in the database: a user session cannot reach admin routes', async () => {
    const { headers, user } = await registerAs(t.app, 'user');
    expect((await t.app.inject({ method: 'GET', url: '/api/stats', headers })).statusCode).toBe(403);
    const [row] = await t.database.db
      .select({ role: users.role })
      .from(users)
      .where(sql`${users.id} = ${user.id}`);
    expect(row?.role).toBe('user');
  });
});

describe('batched session lookups', () => {
  const DAY = 24 * 60 * 60 * 1000;

  it('answers lookups made together with one query, each with its own person and its own clock', async () => {
    const people = await Promise.all([1, 2, 3, 4, 5, 6].map(() => registerAs(t.app, 'user')));
    const resolve = createSessionResolver(t.database);
    const now = t.now();
    const query = vi.spyOn(t.database.pool, 'query');
    try {
      const [known, unknown, late, sameAgain] = await Promise.all([
        Promise.all(people.map((person) => resolve(person.cookie, now))),
        resolve('made-up-token', now),
        // The first person's token, asked about 31 days on: past the lifetime, in the same batch.
        resolve(people[0]?.cookie ?? '', new Date(now.getTime() + 31 * DAY)),
        resolve(people[0]?.cookie ?? '', now),
      ]);
      expect(query).toHaveBeenCalledTimes(1);
      expect(known.map((session) => session?.user.id)).toEqual(people.map((person) => person.user.id));
      expect(known.map((session) => session?.user.email)).toEqual(people.map((person) => person.user.email));
      expect(unknown).toBeNull();
      expect(late).toBeNull();
      expect(sameAgain?.user.id).toBe(people[0]?.user.id);
      expect(new Set(known.map((session) => session?.catalogVersion)).size).toBe(1);
    } finally {
      query.mockRestore();
    }
  });

  it('gathers lookups that arrive while a lookup query runs into the next query', async () => {
    const people = await Promise.all([1, 2, 3, 4].map(() => registerAs(t.app, 'user')));
    const resolve = createSessionResolver(t.database, undefined, 1);
    const now = t.now();
    const turn = () => new Promise((done) => setImmediate(done));
    // Every connection held: the first lookup query waits for one, so it is surely still running
    // while the other lookups arrive, each in an event-loop turn of its own.
    const held = await Promise.all(
      Array.from({ length: t.database.pool.options.max ?? 1 }, () => t.database.pool.connect()),
    );
    const query = vi.spyOn(t.database.pool, 'query');
    try {
      const answers: Promise<ResolvedSession | null>[] = [];
      for (const person of people) {
        answers.push(resolve(person.cookie, now));
        await turn();
      }
      for (const client of held) client.release();
      const sessions = await Promise.all(answers);
      expect(sessions.map((session) => session?.user.id)).toEqual(people.map((person) => person.user.id));
      // one for the first lookup, one for the three that arrived while it waited
      expect(query).toHaveBeenCalledTimes(2);
    } finally {
      query.mockRestore();
    }
  });

  it('gives each of many simultaneous requests its own person (or none)', async () => {
    const people = await Promise.all(Array.from({ length: 12 }, () => registerAs(t.app, 'user')));
    const answers = await Promise.all([
      ...people.map((person) => me(person.cookie)),
      me('made-up-token'),
      me(),
    ]);
    expect(answers.map((answer) => answer.json().user?.email ?? null)).toEqual([
      ...people.map((person) => person.user.email),
      null,
      null,
    ]);
  });
});

describe('health and dashboard figures', () => {
  it('reports health', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('gives admins the counts, with offers active today counted apart', async () => {
    const admin = await registerAs(t.app, 'admin');
    const before = (await t.app.inject({ method: 'GET', url: '/api/stats', headers: admin.headers })).json();
    const pool = t.database.pool;
    const category = await pool.query("insert into categories (name) values ('Stats Cat') returning id");
    const floor = await pool.query("insert into floors (name) values ('Stats Floor') returning id");
    const shop = await pool.query(
      'insert into shops (name, category_id, floor_id) values ($1, $2, $3) returning id',
      ['Stats Shop', category.rows[0].id, floor.rows[0].id],
    );
    const shopId = shop.rows[0].id;
    await pool.query("insert into products (shop_id, name, price) values ($1, 'P', '1.00')", [shopId]);
    // Today in the mall's time zone: starting today and ending today both count as active.
    const today = mallToday(TEST_TIME_ZONE, t.now());
    await pool.query(
      `insert into offers (shop_id, title, discount, start_date, end_date) values
       ($1, 'starts today', 10, $2::date, $2::date + 5), ($1, 'ends today', 10, $2::date - 5, $2::date),
       ($1, 'expired', 10, $2::date - 5, $2::date - 1), ($1, 'future', 10, $2::date + 1, $2::date + 5)`,
      [shopId, today],
    );
    const after = (await t.app.inject({ method: 'GET', url: '/api/stats', headers: admin.headers })).json();
    expect(after).toEqual({
      shops: before.shops + 1,
      products: before.products + 1,
      offers: before.offers + 4,
      activeOffers: before.activeOffers + 2,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/stats' })).statusCode).toBe(401);
  });
});
