import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '../shared/errors';
import { SESSION_COOKIE } from './auth/sessions';
import { createTestApp, registerAs, type TestApp, uniqueEmail } from './test/harness';

// Small limits so the test reaches them; the defaults are far more generous (rate-limits.ts).
const LIMITS = { apiPerMinute: 8, signInPerMinute: 3, registerPerHour: 2 };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: LIMITS, trustProxy: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('per-address rate limits', () => {
  it('limits sign-in attempts per address with 429 and Retry-After, in the one error shape', async () => {
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: from('203.0.113.10'),
        payload: { email: uniqueEmail(), password: 'whatever' },
      });
    for (let i = 0; i < LIMITS.signInPerMinute; i++) {
      expect((await attempt()).json().error.message).toBe(AUTH_MESSAGES.userNotFound);
    }
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toEqual({
      error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests/) },
    });

    // Another address is not affected.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: from('203.0.113.11'),
      payload: { email: uniqueEmail(), password: 'whatever' },
    });
    expect(other.statusCode).toBe(401);
  });

  it('limits registrations per address, creating nothing once limited', async () => {
    const register = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: from('203.0.113.20'),
        payload: { email, password: 'secret1' },
      });
    for (let i = 0; i < LIMITS.registerPerHour; i++)
      expect((await register(uniqueEmail())).statusCode).toBe(201);
    const email = uniqueEmail();
    expect((await register(email)).statusCode).toBe(429);
    const count = await t.database.pool.query('select count(*)::int as n from users where email = $1', [
      email,
    ]);
    expect(count.rows[0].n).toBe(0);
  });

  it('limits the rest of the API per address, but never the health check', async () => {
    const { headers } = await registerAs(t.app, 'user');
    const read = () =>
      t.app.inject({
        method: 'GET',
        url: '/api/categories',
        headers: { ...headers, ...from('203.0.113.30') },
      });
    for (let i = 0; i < LIMITS.apiPerMinute; i++) expect((await read()).statusCode).toBe(200);
    expect((await read()).statusCode).toBe(429);
    for (let i = 0; i < LIMITS.apiPerMinute + 2; i++) {
      const health = await t.app.inject({ method: 'GET', url: '/api/health', headers: from('203.0.113.30') });
      expect(health.statusCode).toBe(200);
    }
  });

  it('counts refused requests too: anonymous, made-up sessions and forbidden writes all reach 429', async () => {
    const { headers } = await registerAs(t.app, 'user');
    const kinds: [string, Record<string, string>, string, string][] = [
      // A read only admins make (a visitor reads the directory now: docs/decisions/034).
      ['anonymous read', {}, 'GET', '/api/stats'],
      ['made-up session', { cookie: `${SESSION_COOKIE}=made-up-token` }, 'GET', '/api/stats'],
      ["a user's admin write", headers, 'DELETE', `/api/categories/${randomUUID()}`],
    ];
    for (const [i, [kind, extra, method, url]] of kinds.entries()) {
      const send = () =>
        t.app.inject({ method: method as 'GET', url, headers: { ...extra, ...from(`203.0.113.4${i}`) } });
      const statuses: number[] = [];
      for (let n = 0; n < LIMITS.apiPerMinute + 1; n++) statuses.push((await send()).statusCode);
      expect(
        statuses.slice(0, -1).every((status) => status === 401 || status === 403),
        kind,
      ).toBe(true);
      expect(statuses.at(-1), kind).toBe(429);
    }
  });

  it('limits before the session lookup: a limited request with a made-up session costs no query', async () => {
    const address = from('203.0.113.50');
    const made = { cookie: `${SESSION_COOKIE}=made-up-token-2`, ...address };
    for (let n = 0; n < LIMITS.apiPerMinute; n++)
      await t.app.inject({ method: 'GET', url: '/api/shops', headers: made });
    const queries = vi.spyOn(t.database.pool, 'query');
    try {
      const limited = await t.app.inject({ method: 'GET', url: '/api/shops', headers: made });
      expect(limited.statusCode).toBe(429);
      expect(queries).not.toHaveBeenCalled();
    } finally {
      queries.mockRestore();
    }
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const untrusted = await createTestApp({ rateLimits: LIMITS });
    try {
      // Without a trusted proxy every request counts against the peer (here the same for all),
      // whatever address it claims to come from.
      const statuses: number[] = [];
      for (let i = 0; i < LIMITS.signInPerMinute + 1; i++) {
        const response = await untrusted.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: from(`198.51.100.${i}`),
          payload: { email: uniqueEmail(), password: 'whatever' },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await untrusted.close();
    }
  });
});
