import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { HttpError } from './errors';
import { isApiRequest, isProbe } from './lib/request-route';
import { isRenderRead } from './pages/renderer';

/**
 * Per-client-address request limits. Shoppers on the mall's Wi-Fi share one address, so they are
 * generous; the sign-in lockout (auth/lockout.ts) is the real defence against guessing and is never
 * turned off. Counted per server: behind N servers a client may reach N times the figure.
 */
export interface RateLimits {
  apiPerMinute: number;
  signInPerMinute: number;
  registerPerHour: number;
}

type Group = 'sign-in' | 'register' | 'api';

/** From the matched route's config: every spelling the router accepts for a route counts in its bucket. */
function groupOf(request: FastifyRequest): Group {
  return request.routeOptions.config?.rateLimitGroup ?? 'api';
}

/**
 * One global onRequest hook, registered before the session lookup and before every route's own sign-in
 * and role check: a refused request (anonymous, made-up cookie, wrong role, unknown /api path) is counted
 * and limited like any other, and a limited one costs no database lookup.
 */
export async function registerRateLimits(app: FastifyInstance, limits: RateLimits): Promise<CountVisit> {
  const store = windowStore();
  await app.register(fastifyRateLimit, {
    // Ours rather than the plugin's own LocalStore (the same fixed window): the kept public pages,
    // answered before Fastify routes a request (docs/decisions/045), count in it too.
    store: class {
      incr = store.incr;
      read = store.read;
      child = store.child;
    },
    // Not per route (the plugin's per-route hooks run after the route's own hooks): the hook below.
    global: false,
    // The app's pages and assets are not limited; nor is the health check load balancers poll, nor a
    // public page's own reads (the page's request was counted). The public pages are: each costs a render.
    allowList: (request) =>
      (!isApiRequest(request) && !request.routeOptions.config?.publicPage) ||
      isProbe(request) ||
      isRenderRead(request),
    keyGenerator: (request) => `${groupOf(request)}|${request.ip}`,
    max: (request) => {
      const group = groupOf(request);
      if (group === 'sign-in') return limits.signInPerMinute;
      if (group === 'register') return limits.registerPerHour;
      return limits.apiPerMinute;
    },
    timeWindow: (request) => (groupOf(request) === 'register' ? 60 * 60 * 1000 : MINUTE_MS),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, 'RATE_LIMITED', `Too many requests. Try again in ${context.after}.`),
  });
  app.addHook('onRequest', app.rateLimit());
  return (ip) => {
    const { current, ttl } = store.count(`api|${ip}`, MINUTE_MS);
    if (current > limits.apiPerMinute) return null;
    // The headers the plugin sets on a request within its limit (addHeadersOnExceeding's defaults).
    return {
      'x-ratelimit-limit': String(limits.apiPerMinute),
      'x-ratelimit-remaining': String(Math.max(0, limits.apiPerMinute - current)),
      'x-ratelimit-reset': String(Math.ceil(ttl / 1000)),
    };
  };
}

const MINUTE_MS = 60 * 1000;

/**
 * Counts a request of a public page in the 'api' bucket of its client address, as the routed request
 * would be: the headers its answer carries, or null when the address is over its limit (the request then
 * takes the routed way, which counts it again and refuses it with the plugin's 429).
 */
export type CountVisit = (ip: string) => Record<string, string> | null;

/**
 * The counts: a fixed window per key, as @fastify/rate-limit's LocalStore keeps them (its
 * `continueExceeding` and `exponentialBackoff` off, as ours are), and as many keys (5,000, least recently
 * used first out). `incr` is the plugin's store interface; `count` the same, for the kept pages.
 */
function windowStore() {
  const windows = new LRUCache<string, { current: number; startMs: number }>({ max: 5000 });
  const count = (key: string, windowMs: number) => {
    const nowMs = Date.now();
    let window = windows.get(key);
    if (!window || window.startMs + windowMs <= nowMs) {
      window = { current: 1, startMs: nowMs };
      windows.set(key, window);
      return { current: 1, ttl: windowMs };
    }
    window.current++;
    return { current: window.current, ttl: windowMs - (nowMs - window.startMs) };
  };
  const store = {
    count,
    incr(
      key: string,
      done: (error: Error | null, result: { current: number; ttl: number }) => void,
      windowMs: number,
    ) {
      done(null, count(key, windowMs));
    },
    read(
      key: string,
      done: (error: Error | null, result: { current: number; ttl: number }) => void,
      windowMs: number,
    ) {
      const window = windows.peek(key);
      const nowMs = Date.now();
      if (!window || window.startMs + windowMs <= nowMs) return done(null, { current: 0, ttl: 0 });
      done(null, { current: window.current, ttl: windowMs - (nowMs - window.startMs) });
    },
    // A route's own limit gets a store of its own, as LocalStore's child (no route has one today).
    child: () => windowStore(),
  };
  return store;
}
