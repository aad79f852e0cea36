import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
export async function registerRateLimits(app: FastifyInstance, limits: RateLimits): Promise<void> {
  await app.register(fastifyRateLimit, {
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
    timeWindow: (request) => (groupOf(request) === 'register' ? 60 * 60 * 1000 : 60 * 1000),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, 'RATE_LIMITED', `Too many requests. Try again in ${context.after}.`),
  });
  app.addHook('onRequest', app.rateLimit());
}
