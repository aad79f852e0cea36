import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/**
 * How hard a new password hash is to compute (MALL_PASSWORD_HASHING, docs/decisions/046).
 * - `owasp`, the default: OWASP's scrypt choice of N=2^15, r=8, p=3 (32 MiB, about 0.3 s of a core here).
 * - `fast-for-tests`: N=2^10, r=8, p=1, about 100 times cheaper, for test runs only (as Rails' and
 *   Django's test settings do): the test suites sign up thousands of people. The same code hashes and
 *   verifies; only the cost differs.
 * The cost and salt are stored with each hash, so a hash made at one cost verifies at any other, and a
 * sign-in rehashes a password stored at less than the server's cost (`weakerThan`).
 */
export const PASSWORD_COSTS = {
  owasp: { N: 2 ** 15, r: 8, p: 3 },
  'fast-for-tests': { N: 2 ** 10, r: 8, p: 1 },
} as const satisfies Record<string, ScryptCost>;

export type PasswordHashing = keyof typeof PASSWORD_COSTS;

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 256 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, base64url parts. Runs on libuv's thread pool, not the event loop. */
export async function hashPassword(
  password: string,
  cost: ScryptCost = PASSWORD_COSTS.owasp,
): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = cost;
  const key = await derive(password, salt, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(N),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Whether hashing again at `cost` would make `stored` stronger and in no way cheaper: none of its N, r, p
 * above `cost`'s and at least one below. A hash stronger in one and weaker in another (N=2^17, p=1
 * against N=2^15, p=3) is kept as it is.
 */
export function weakerThan(stored: string, cost: ScryptCost): boolean {
  const [scheme, ...parts] = stored.split('$');
  if (scheme !== 'scrypt') return false;
  const [N, r, p] = parts.map(Number);
  if (N === undefined || r === undefined || p === undefined) return false;
  return N <= cost.N && r <= cost.r && p <= cost.p && (N < cost.N || r < cost.r || p < cost.p);
}
