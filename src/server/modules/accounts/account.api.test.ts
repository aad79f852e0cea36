// A person's own account: display name, password change (current password required, every other session
// ended, this browser handed a new one, guesses locked out as sign-ins are), signing out everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, DISPLAY_NAME_MAX_LENGTH } from '../../../shared/account';
import { AUTH_MESSAGES } from '../../../shared/errors';
import { SESSION_COOKIE } from '../../auth/sessions';
import {
  createTestApp,
  login,
  QueueWithAHook,
  registerAs,
  type SignedIn,
  type TestApp,
} from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const PASSWORD = 'secret-password';
const call = (
  as: SignedIn | { headers: Record<string, string> },
  method: 'PATCH' | 'POST',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: as.headers, ...(payload ? { payload } : {}) });
const whoIs = async (cookie: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: `${SESSION_COOKIE}=${cookie}` },
    })
  ).json().user as { email: string; displayName: string | null } | null;
const sessionCount = async (userId: string) =>
  (
    await t.database.pool.query<{ n: number }>('select count(*)::int as n from sessions where user_id = $1', [
      userId,
    ])
  ).rows[0]?.n;

describe('display name', () => {
  it('is set, shown by /api/auth/me, and cleared by an empty one (the greeting falls back to the email)', async () => {
    const person = await registerAs(t.app, 'user');
    const set = await call(person, 'PATCH', '/api/account', { displayName: '  Asha  Rao ' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.headers['cache-control']).toBe('no-store');
    expect(set.json().user).toMatchObject({ id: person.user.id, displayName: 'Asha  Rao' });
    expect(await whoIs(person.cookie)).toMatchObject({ displayName: 'Asha  Rao' });

    const cleared = await call(person, 'PATCH', '/api/account', { displayName: ' \u200B ' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await whoIs(person.cookie)).toMatchObject({ displayName: null });
  });

  it('refuses a name that is too long, naming the field, and keeps the old one', async () => {
    const admin = await registerAs(t.app, 'admin');
    expect((await call(admin, 'PATCH', '/api/account', { displayName: 'Mall Office' })).statusCode).toBe(200);
    const refused = await call(admin, 'PATCH', '/api/account', {
      displayName: 'x'.repeat(DISPLAY_NAME_MAX_LENGTH + 1),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ displayName: ACCOUNT_MESSAGES.displayNameTooLong });
    expect(await whoIs(admin.cookie)).toMatchObject({ displayName: 'Mall Office' });
  });
});

describe('password change', () => {
  it('needs the current password; then ends every other session and hands this browser a new one', async () => {
    const here = await registerAs(t.app, 'user', { password: PASSWORD });
    const elsewhere = await login(t.app, here.user.email, PASSWORD);
    expect(await sessionCount(here.user.id)).toBe(2);

    const wrong = await call(here, 'POST', '/api/account/password', {
      currentPassword: 'not-the-password',
      newPassword: 'brand-new-secret',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({
      code: 'WRONG_PASSWORD',
      fields: { currentPassword: AUTH_MESSAGES.wrongPassword },
    });
    expect(await whoIs(elsewhere.cookie)).not.toBeNull();

    const short = await call(here, 'POST', '/api/account/password', {
      currentPassword: PASSWORD,
      newPassword: '12345',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields).toEqual({ newPassword: AUTH_MESSAGES.weakPassword });

    const changed = await call(here, 'POST', '/api/account/password', {
      currentPassword: PASSWORD,
      newPassword: 'brand-new-secret',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const rotated = changed.cookies.find((cookie) => cookie.name === SESSION_COOKIE);
    expect(rotated).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(rotated?.value).not.toBe(here.cookie);
    expect(await whoIs(rotated?.value ?? '')).toMatchObject({ email: here.user.email });
    // the other browser and this browser's old token open nothing any more
    expect(await whoIs(elsewhere.cookie)).toBeNull();
    expect(await whoIs(here.cookie)).toBeNull();
    expect(await sessionCount(here.user.id)).toBe(1);

    const oldPassword = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: here.user.email, password: PASSWORD },
    });
    expect(oldPassword.statusCode).toBe(401);
    await login(t.app, here.user.email, 'brand-new-secret');
  });

  it('lets one of two changes made at once win: the other was checked against a password that is gone', async () => {
    const queue = new QueueWithAHook(1, 8);
    const racing = await createTestApp({ hashQueue: queue });
    try {
      const owner = await registerAs(racing.app, 'user', { password: PASSWORD });
      // Someone with a copied session and the old password, changing it in another browser.
      const other = await login(racing.app, owner.user.email, PASSWORD);
      const change = (as: SignedIn, newPassword: string) =>
        racing.app
          .inject({
            method: 'POST',
            url: '/api/account/password',
            headers: as.headers,
            payload: { currentPassword: PASSWORD, newPassword },
          })
          .then((response) => response);
      // Right after the owner's change has checked the old password, the other change runs to its end.
      let otherAnswer: ReturnType<typeof change> | undefined;
      queue.afterTask = async () => {
        otherAnswer = change(other, 'the-other-secret');
        await otherAnswer;
      };
      const owners = await change(owner, 'the-owners-secret');
      expect((await otherAnswer)?.statusCode).toBe(200);
      expect(owners.statusCode).toBe(400);
      expect(owners.json().error).toMatchObject({
        code: 'WRONG_PASSWORD',
        fields: { currentPassword: AUTH_MESSAGES.wrongPassword },
      });
      // The winner's password is the account's; the refused one opens nothing.
      const signIn = (password: string) =>
        racing.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: owner.user.email, password },
        });
      expect((await signIn('the-owners-secret')).statusCode).toBe(401);
      expect((await signIn('the-other-secret')).statusCode).toBe(200);
    } finally {
      await racing.close();
    }
  });

  it('locks out guesses of the current password as sign-in does: the 6th attempt is refused unchecked', async () => {
    const person = await registerAs(t.app, 'user', { password: PASSWORD });
    for (let attempt = 1; attempt <= 5; attempt++) {
      const guess = await call(person, 'POST', '/api/account/password', {
        currentPassword: `guess-${attempt}`,
        newPassword: 'brand-new-secret',
      });
      expect(guess.statusCode, `guess ${attempt}`).toBe(400);
    }
    const locked = await call(person, 'POST', '/api/account/password', {
      currentPassword: PASSWORD,
      newPassword: 'brand-new-secret',
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.message).toBe(AUTH_MESSAGES.locked);
    // nothing changed: the session stands and the old password still opens the account elsewhere later
    expect(await whoIs(person.cookie)).not.toBeNull();
  });

  it('is refused to a visitor', async () => {
    const visitor = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      payload: { currentPassword: PASSWORD, newPassword: 'brand-new-secret' },
    });
    expect(visitor.statusCode).toBe(401);
  });
});

describe('sign out everywhere', () => {
  it('ends every session of the person, this one included, and no one else’s', async () => {
    const here = await registerAs(t.app, 'user', { password: PASSWORD });
    const elsewhere = await login(t.app, here.user.email, PASSWORD);
    const someoneElse = await registerAs(t.app, 'user');
    const response = await call(here, 'POST', '/api/account/sign-out-everywhere');
    expect(response.statusCode, response.body).toBe(204);
    expect(response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value).toBe('');
    expect(await whoIs(here.cookie)).toBeNull();
    expect(await whoIs(elsewhere.cookie)).toBeNull();
    expect(await sessionCount(here.user.id)).toBe(0);
    expect(await whoIs(someoneElse.cookie)).not.toBeNull();
    // signed out: a second call is a visitor's
    expect((await call(here, 'POST', '/api/account/sign-out-everywhere')).statusCode).toBe(401);
  });
});
