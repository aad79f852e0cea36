import { describe, expect, it } from 'vitest';
import { type CachedSession, SessionCache } from './session-cache';

const DAY = 24 * 60 * 60 * 1000;
const IDLE = 7 * DAY;

function session(userId: string, now = Date.now()): CachedSession {
  return {
    user: {
      id: userId,
      email: `${userId}@example.com`,
      role: 'user',
      displayName: null,
      createdAt: new Date(now).toISOString(),
      lastLogin: null,
      managedShopIds: [],
    },
    sessionId: `s-${userId}`,
    lastSeenAt: now,
    expiresAt: now + 30 * DAY,
  };
}

function listening(): SessionCache {
  const cache = new SessionCache();
  cache.setListening(true);
  return cache;
}

describe('SessionCache', () => {
  it('keeps nothing and answers nothing while not listening', () => {
    const cache = new SessionCache();
    cache.remember('t', session('a'), cache.generation);
    cache.rememberVersion('5', cache.generation);
    expect(cache.session('t', Date.now(), IDLE)).toBeUndefined();
    expect(cache.catalogVersion()).toBeNull();
  });

  it("forgets a person's sessions on 'u:', everything on '*' and on anything it cannot read", () => {
    const cache = listening();
    const now = Date.now();
    cache.remember('a1', session('a'), cache.generation);
    cache.remember('a2', session('a'), cache.generation);
    cache.remember('b1', session('b'), cache.generation);
    cache.handle('u:a,c');
    expect(cache.session('a1', now, IDLE)).toBeUndefined();
    expect(cache.session('a2', now, IDLE)).toBeUndefined();
    expect(cache.session('b1', now, IDLE)?.user.id).toBe('b');
    for (const payload of ['*', 'garbage', 'v:not-a-number']) {
      cache.remember('b1', session('b'), cache.generation);
      cache.rememberVersion('3', cache.generation);
      cache.handle(payload);
      expect(cache.session('b1', now, IDLE), payload).toBeUndefined();
      expect(cache.catalogVersion(), payload).toBeNull();
    }
  });

  it('does not keep a lookup overtaken by a revocation', () => {
    const cache = listening();
    const sent = cache.generation;
    cache.handle('u:someone-else');
    cache.remember('a1', session('a'), sent);
    expect(cache.session('a1', Date.now(), IDLE)).toBeUndefined();
  });

  it('keeps the highest catalogue version, from lookups and notifications alike', () => {
    const cache = listening();
    cache.handle('v:7');
    cache.rememberVersion('6', cache.generation);
    expect(cache.catalogVersion()).toBe('7');
    cache.rememberVersion('9', cache.generation);
    expect(cache.catalogVersion()).toBe('9');
  });

  it("checks each request's clock against the session's own expiry", () => {
    const cache = listening();
    const now = Date.now();
    cache.remember('a1', session('a', now), cache.generation);
    expect(cache.session('a1', now + 6 * DAY, IDLE)).toBeDefined();
    expect(cache.session('a1', now + 7 * DAY + 1, IDLE)).toBeUndefined();
    cache.touched('a1', now + 6 * DAY);
    expect(cache.session('a1', now + 12 * DAY, IDLE)).toBeDefined();
    expect(cache.session('a1', now + 30 * DAY, IDLE)).toBeUndefined();
  });

  it('trusts nothing longer than its bound', async () => {
    const cache = new SessionCache({ ttlMs: 30 });
    cache.setListening(true);
    cache.remember('a1', session('a'), cache.generation);
    cache.rememberVersion('4', cache.generation);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(cache.session('a1', Date.now(), IDLE)).toBeUndefined();
    expect(cache.catalogVersion()).toBeNull();
  });
});

describe('SessionCache on a clock that stands still (the embedded session held)', () => {
  it('counts its bound on that clock, for sessions and the catalogue version alike', () => {
    let clock = 0;
    const cache = new SessionCache({ ttlMs: 5_000, clock: () => clock });
    cache.setListening(true);
    cache.remember('a1', session('a'), cache.generation);
    cache.rememberVersion('4', cache.generation);
    // A minute of wall time passes while the clock stands still: still trusted.
    clock = 4_999;
    expect(cache.session('a1', Date.now() + 60_000, IDLE)?.user.id).toBe('a');
    expect(cache.catalogVersion()).toBe('4');
    clock = 5_001;
    expect(cache.session('a1', Date.now(), IDLE)).toBeUndefined();
    expect(cache.catalogVersion()).toBeNull();
    // What the cache forgot stays forgotten until the database confirms it again.
    clock = 0;
    expect(cache.session('a1', Date.now(), IDLE)).toBeUndefined();
  });

  it('still forgets at once what a notification revokes, however still the clock', () => {
    const cache = new SessionCache({ clock: () => 0 });
    cache.setListening(true);
    cache.remember('a1', session('a'), cache.generation);
    cache.handle('u:a');
    expect(cache.session('a1', Date.now(), IDLE)).toBeUndefined();
  });
});
