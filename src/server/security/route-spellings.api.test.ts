// Every route in every spelling the router accepts for it gets the same rate limit, CSRF rule and
// authorization as its plain path. Generated from the app's route table and sent over a real socket (so
// that request targets no URL parser would send — a fragment, an absolute URL — reach the server as an
// attacker would send them). The guards once read the raw URL text: `/%61pi/auth/login` was not
// rate-limited at all and a cross-site sign-in got 200 on it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, SESSION_COOKIE } from '../auth/sessions';
import { createTestApp, registerAs, type SignedIn, type TestApp, uniqueEmail } from '../test/harness';

// Small limits so every bucket is reached quickly; each case below uses addresses of its own.
const LIMITS = { apiPerMinute: 4, signInPerMinute: 3, registerPerHour: 2 };

let t: TestApp;
let origin: string;
let user: SignedIn;
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
beforeAll(async () => {
  t = await createTestApp({ rateLimits: LIMITS, trustProxy: '127.0.0.1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  user = await registerAs(t.app, 'user');
});
afterAll(async () => {
  agent.destroy();
  await t?.close();
});

interface Answer {
  status: number;
  code: string | undefined;
}

/** One request with the request target exactly as given (Node's http client sends `path` verbatim). */
function send(
  method: string,
  target: string,
  { address, headers = {} }: { address: string; headers?: Record<string, string> },
): Promise<Answer> {
  const body = ['GET', 'HEAD', 'DELETE'].includes(method) ? undefined : '{}';
  return new Promise((resolve, reject) => {
    const request = http.request(
      origin,
      {
        method,
        path: target,
        agent,
        headers: {
          'x-forwarded-for': address,
          ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => {
          let code: string | undefined;
          try {
            code = JSON.parse(text)?.error?.code;
          } catch {
            code = undefined;
          }
          resolve({ status: response.statusCode ?? 0, code });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * A cookie header for a new session of one person who is only ever signed out by the routes that end
 * sessions (a session row made directly: registering a person per request costs a password hash each).
 */
let sessionEnder: string | undefined;
async function endableSessionCookie(address: string): Promise<string> {
  if (!sessionEnder) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'x-forwarded-for': address },
      payload: { email: uniqueEmail('spelling-ender'), password: 'secret-password' },
    });
    sessionEnder = response.json().user.id as string;
  }
  return `${SESSION_COOKIE}=${await createSession(t.database.db, sessionEnder, new Date())}`;
}

const SAMPLE_ID = '0b7f4c2e-9a1d-4e6b-8c3f-5d2a1e0f9b8c';
const plainPath = (pattern: string) => pattern.replace(/:[A-Za-z]+/g, SAMPLE_ID);

const hex = (char: string, upper: boolean) => {
  const code = char.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? code.toUpperCase() : code}`;
};
/** Each segment's first character percent-encoded (lower-case hex). */
const firstEncoded = (path: string) =>
  path.replace(/\/([^/])/g, (_match, first: string) => `/${hex(first, false)}`);
/** Every character of every segment percent-encoded (upper-case hex). */
const allEncoded = (path: string) =>
  path
    .split('/')
    .map((segment) => [...segment].map((char) => hex(char, true)).join(''))
    .join('/');

/** The codes of the answers a guard gives (sign-in, role, CSRF, rate limit). */
const GUARD_CODES = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'CROSS_SITE', 'RATE_LIMITED', 'LOCKED']);

/** Ways to write a path; the test finds out which ones the router takes for the same route. */
const CANDIDATES: Record<string, (path: string) => string> = {
  'first letter of each segment percent-encoded': firstEncoded,
  'every character percent-encoded': allEncoded,
  'empty query': (path) => `${path}?`,
  'unrelated query': (path) => `${path}?spelling=1`,
  fragment: (path) => `${path}#spelling`,
  'absolute URL': (path) => `http://127.0.0.1${path}`,
  'absolute URL with another host': (path) => `http://attacker.example${path}`,
  'absolute URL, encoded': (path) => `http://127.0.0.1${firstEncoded(path)}`,
  'trailing slash': (path) => `${path}/`,
  'double slash': (path) => path.replace('/api/', '/api//'),
  'dot segment': (path) => path.replace('/api/', '/api/./'),
  'dot-dot segment': (path) => path.replace('/api/', '/api/x/../'),
  'upper case': (path) => path.toUpperCase(),
  'encoded slash': (path) => path.replace('/api/', '/api%2F'),
  semicolon: (path) => `${path};spelling`,
  backslash: (path) => path.replace('/api/', '/api\\'),
};

/** The candidate spellings under which the router answers /api/health as /api/health. */
const accepted: string[] = [];

describe('route spellings', () => {
  it('finds which spellings the router accepts (and knows the list: a new one must be looked at)', async () => {
    for (const [name, spell] of Object.entries(CANDIDATES)) {
      const answer = await send('GET', spell('/api/health'), { address: '192.0.2.1' });
      if (answer.status === 200) accepted.push(name);
    }
    expect(accepted.sort()).toEqual(
      [
        'first letter of each segment percent-encoded',
        'every character percent-encoded',
        'empty query',
        'unrelated query',
        'fragment',
        'absolute URL',
        'absolute URL with another host',
        'absolute URL, encoded',
      ].sort(),
    );
  });

  it('gives every route in every accepted spelling the plain path’s authorization, CSRF rule and rate limit', async () => {
    let address = 0;
    const fresh = () => {
      address++;
      return `10.77.${Math.floor(address / 250)}.${(address % 250) + 1}`;
    };
    const routes = t.app.routeTable.filter((route) => route.url.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(20);
    const mismatches: string[] = [];
    // What the guards decided: refused (and how), or let through to validation and the handler. A spelling
    // with a query may fail validation where the plain path does not (unknown query keys are refused):
    // that is the handler's answer to a different request, not a guard's.
    const decision = (answer: Answer) =>
      answer.code && GUARD_CODES.has(answer.code) ? `${answer.status} ${answer.code}` : 'let through';
    const check = (label: string, got: Answer, want: Answer) => {
      if (decision(got) !== decision(want))
        mismatches.push(`${label}: ${decision(got)}, plain path ${decision(want)}`);
    };
    // Signing out (here or everywhere) ends the session it is sent with.
    const SESSION_ENDING = new Set(['/api/auth/logout', '/api/account/sign-out-everywhere']);
    for (const { method, url } of routes) {
      const plain = plainPath(url);
      const isWrite = !['GET', 'HEAD', 'OPTIONS'].includes(method);
      const isProbe = url === '/api/health';
      // Changing one's password is guessing a password too: the sign-in bucket.
      const limit = ['/api/auth/login', '/api/account/password'].includes(url)
        ? LIMITS.signInPerMinute
        : LIMITS.apiPerMinute;
      // Registration: 2 an hour per address.
      const max = url === '/api/auth/register' ? LIMITS.registerPerHour : limit;
      // Every body is `{}` and no request is an admin's: nothing is written by this test.

      const wantAnonymous = await send(method, plain, { address: fresh() });
      // Signing out ends the session it is sent with: that route gets a new person each time.
      const asUser = async () => ({
        cookie: SESSION_ENDING.has(url) ? await endableSessionCookie(fresh()) : user.headers.cookie,
      });
      const wantUser = await send(method, plain, { address: fresh(), headers: await asUser() });
      const crossSite = { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' };
      const wantCrossSite = await send(method, plain, { address: fresh(), headers: crossSite });
      if (isWrite)
        expect(wantCrossSite, `${method} ${plain} cross-site`).toEqual({ status: 403, code: 'CROSS_SITE' });

      for (const name of accepted) {
        const target = CANDIDATES[name]?.(plain) ?? plain;
        const label = `${method} ${target}`;
        check(`${label} anonymous`, await send(method, target, { address: fresh() }), wantAnonymous);
        check(
          `${label} as a user`,
          await send(method, target, { address: fresh(), headers: await asUser() }),
          wantUser,
        );
        check(
          `${label} cross-site`,
          await send(method, target, { address: fresh(), headers: crossSite }),
          wantCrossSite,
        );

        // The same bucket whichever way it is written: fill it through one spelling, the other is refused.
        for (const [fill, probe] of [
          [plain, target],
          [target, plain],
        ] as const) {
          const from = fresh();
          for (let i = 0; i < max; i++) await send(method, fill, { address: from });
          const last = await send(method, probe, { address: from });
          if (isProbe)
            check(`${label} after ${max} of ${fill} (health is never limited)`, last, wantAnonymous);
          else
            check(`${method} ${probe} after ${max} of ${fill}`, last, { status: 429, code: 'RATE_LIMITED' });
        }
      }
    }
    expect(mismatches).toEqual([]);
    // The person stayed signed in throughout: "as a user" was tried as a user.
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers });
    expect(me.json().user?.id).toBe(user.user.id);
    // Every route × every spelling × three callers, one after the other: about 15 s on a quiet machine, past
    // the default 30 s on a loaded one (it timed out so in a full run at load average 8).
  }, 120_000);

  it('gives the public pages, robots.txt and the sitemap in every accepted spelling the plain path’s answer and rate limit', async () => {
    let address = 0;
    const fresh = () => {
      address++;
      return `10.79.${Math.floor(address / 250)}.${(address % 250) + 1}`;
    };
    // Every route that is not the API's: the public directory's pages (docs/decisions/034), which are
    // rate-limited like the API (each costs a render), and what search engines read, which is not.
    const routes = t.app.routeTable.filter(
      (route) => route.method === 'GET' && !route.url.startsWith('/api/'),
    );
    expect(routes.map((route) => route.url).sort()).toEqual(
      [
        '/events',
        '/events/:id',
        '/floors',
        '/offers',
        '/robots.txt',
        '/search',
        '/shops',
        '/shops/:slug',
        '/sitemap-:n.xml',
        '/sitemap.xml',
      ].sort(),
    );
    const LIMITED = new Set([
      '/events',
      '/events/:id',
      '/floors',
      '/offers',
      '/search',
      '/shops',
      '/shops/:slug',
    ]);
    const mismatches: string[] = [];
    const outcome = (answer: Answer) => `${answer.status}${answer.code ? ` ${answer.code}` : ''}`;
    for (const { url } of routes) {
      // A shop no one has: the shop page's 404 page, a page all the same.
      const plain = url
        .replace(':slug', 'no-such-shop')
        .replace(':n', '1')
        .replace(':id', '00000000-0000-4000-8000-000000000000');
      const want = await send('GET', plain, { address: fresh() });
      expect(want.status, plain).toBeLessThan(500);
      for (const name of accepted) {
        const target = CANDIDATES[name]?.(plain) ?? plain;
        const got = await send('GET', target, { address: fresh() });
        if (outcome(got) !== outcome(want))
          mismatches.push(`GET ${target}: ${outcome(got)}, plain path ${outcome(want)}`);
        // One bucket whichever way it is written (pages), or none at all (robots, the sitemap).
        for (const [fill, probe] of [
          [plain, target],
          [target, plain],
        ] as const) {
          const from = fresh();
          for (let i = 0; i < LIMITS.apiPerMinute; i++) await send('GET', fill, { address: from });
          const last = await send('GET', probe, { address: from });
          const expected = LIMITED.has(url) ? '429 RATE_LIMITED' : outcome(want);
          if (outcome(last) !== expected)
            mismatches.push(
              `GET ${probe} after ${LIMITS.apiPerMinute} of ${fill}: ${outcome(last)}, not ${expected}`,
            );
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('counts unknown /api paths, in any spelling, in the same bucket as the known ones', async () => {
    const from = '10.78.0.1';
    for (let i = 0; i < LIMITS.apiPerMinute; i++) {
      const answer = await send('GET', '/%61pi/no-such-route', {
        address: from,
        headers: { cookie: `${SESSION_COOKIE}=made-up` },
      });
      expect(answer).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    expect(await send('GET', '/api/no-such-route', { address: from })).toEqual({
      status: 429,
      code: 'RATE_LIMITED',
    });
  });
});
