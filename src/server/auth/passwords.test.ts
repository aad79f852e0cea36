import { describe, expect, it } from 'vitest';
import { hashPassword, PASSWORD_COSTS, verifyPassword, weakerThan } from './passwords';

describe('password hashes', () => {
  it("are OWASP's scrypt cost unless told otherwise, salted, and carry their cost", async () => {
    const hash = await hashPassword('secret-password');
    expect(hash.startsWith('scrypt$32768$8$3$')).toBe(true);
    expect(PASSWORD_COSTS.owasp).toEqual({ N: 2 ** 15, r: 8, p: 3 });
    expect(await hashPassword('secret-password')).not.toBe(hash);
    expect(await verifyPassword('secret-password', hash)).toBe(true);
    expect(await verifyPassword('secret-passwort', hash)).toBe(false);
  });

  it('verify at the cost stored in them, whatever the cost of new ones', async () => {
    const fast = await hashPassword('pässword', PASSWORD_COSTS['fast-for-tests']);
    expect(fast.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('pässword', fast)).toBe(true);
    // The same text in another Unicode form (NFD) is the same password.
    expect(await verifyPassword('pa\u0308ssword', fast)).toBe(true);
    expect(await verifyPassword('password', fast)).toBe(false);
    expect(await verifyPassword('pässword', 'bcrypt$whatever')).toBe(false);
  });

  it('are weaker than a cost when one of N, r or p is lower and none higher', () => {
    const owasp = PASSWORD_COSTS.owasp;
    const stored = (N: number, r: number, p: number) => `scrypt$${N}$${r}$${p}$salt$hash`;
    expect(weakerThan(stored(2 ** 10, 8, 1), owasp)).toBe(true);
    expect(weakerThan(stored(2 ** 15, 8, 1), owasp)).toBe(true);
    expect(weakerThan(stored(2 ** 15, 4, 3), owasp)).toBe(true);
    expect(weakerThan(stored(2 ** 15, 8, 3), owasp)).toBe(false);
    expect(weakerThan(stored(2 ** 16, 8, 3), owasp)).toBe(false);
    expect(weakerThan(stored(2 ** 15, 8, 3), PASSWORD_COSTS['fast-for-tests'])).toBe(false);
    // Never cheaper in any of them: more memory but less parallel work is kept as it is.
    expect(weakerThan(stored(2 ** 17, 8, 1), owasp)).toBe(false);
    expect(weakerThan(stored(2 ** 14, 16, 3), owasp)).toBe(false);
    // Not an scrypt hash: nothing to hash again (it never verifies).
    expect(weakerThan('not-a-hash', owasp)).toBe(false);
  });
});
