import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionUser } from '../../shared/auth';
import { NOT_YOUR_SHOP } from '../../shared/managers';
import { can, type Permission, visitorMay } from '../../shared/permissions';
import type { Database } from '../db/client';
import { forbidden, unauthenticated } from '../errors';
import { isProbe, matchedRoute } from '../lib/request-route';
import { type ChangeListener, listenOnPostgres, SessionCache } from './session-cache';
import { createCatalogVersionResolver, createSessionResolver, SESSION_COOKIE } from './sessions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the route does, for the one permission policy (src/shared/permissions.ts): the route is then
     * guarded by it (anonymous → 401, not allowed → 403) before validation. Routes without one are public.
     */
    permission?: Permission;
  }
  interface FastifyRequest {
    /** The signed-in person, resolved from the session cookie before every /api handler. */
    user: SessionUser | null;
    /** catalog_version as the session lookup saw it; null without a session. */
    catalogVersion: string | null;
  }
  interface FastifyInstance {
    /**
     * The session cache's link to the database (docs/decisions/027); null when the cache is off.
     * `sync()` resolves once every change committed before it has reached this server's cache.
     */
    sessionChanges: (ChangeListener & { cache: SessionCache }) | null;
    /** The catalogue version now, as a visitor's request reads it (sessions.ts). */
    catalogVersion: () => Promise<string>;
    /**
     * The catalogue version when this server already knows it (the session cache's, within its bound),
     * else null: a kept page is sent without waiting on anything (plugins/public-pages.ts).
     */
    catalogVersionKnown: () => string | null;
  }
}

/** Resolves the session cookie into request.user for every API request. */
export const sessionPlugin = fp<{
  database: Database;
  now: () => Date;
  sessionCache?: boolean;
  /** Visitors may read the directory (MALL_PUBLIC_DIRECTORY, docs/decisions/034). */
  publicDirectory?: boolean;
}>(async (app, { database, now, sessionCache = true, publicDirectory = false }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('catalogVersion', null);
  const cache = sessionCache ? new SessionCache() : undefined;
  const listener = cache ? listenOnPostgres(database.pool, cache, app.log) : null;
  app.decorate('sessionChanges', listener && cache ? Object.assign(listener, { cache }) : null);
  if (listener) {
    app.addHook('onReady', () => listener.started);
    app.addHook('onClose', () => listener.close());
  }
  const resolveSession = createSessionResolver(database, cache);
  const resolveCatalogVersion = createCatalogVersionResolver(database, cache);
  // Every route that declares a permission is guarded by the policy, first among its own hooks.
  app.addHook('onRoute', (route) => {
    const permission = route.config?.permission;
    if (permission)
      route.onRequest = [authorize(permission, publicDirectory), ...[route.onRequest ?? []].flat()];
    // A write answers only once what it changed has reached this server's session cache: its
    // author's next request sees it here.
    const methods = [route.method].flat();
    if (listener && methods.some((m) => !['GET', 'HEAD', 'OPTIONS'].includes(m)))
      route.onSend = [[route.onSend ?? []].flat(), syncBeforeAnswering(listener)].flat();
  });
  const identify = async (request: FastifyRequest) => {
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await resolveSession(token, now()) : null;
    request.user = session?.user ?? null;
    request.catalogVersion = session?.catalogVersion ?? null;
    // A visitor's cacheable read (the public directory) keys on the version too.
    if (!session && request.routeOptions.config?.cache)
      request.catalogVersion = await resolveCatalogVersion();
  };
  // A callback that waits only when there is someone to look up: pages and files go on at once
  // (a promise per request was a measurable part of a cached page's cost: docs/decisions/043).
  app.addHook('onRequest', (request, _reply, done) => {
    // Only for API routes the router matched (an unknown path needs no person), and not for the health
    // check, which answers load balancers who have no session.
    const route = matchedRoute(request);
    if (!route?.startsWith('/api/') || isProbe(request)) return done();
    identify(request).then(() => done(), done);
  });
  app.decorate('catalogVersion', resolveCatalogVersion);
  app.decorate('catalogVersionKnown', () => cache?.catalogVersion() ?? null);
});

/**
 * Only after a write that succeeded: a refused or failed one rolled back whatever it had begun (every
 * write is one transaction; the sign-in lockout's count, committed before a 401 or 429, is no cached
 * state), so it has nothing to wait for — and refusals, the bulk of a hostile burst, cost no round trip.
 */
function syncBeforeAnswering(listener: ChangeListener) {
  return async function syncSessionCache(_request: unknown, reply: FastifyReply, payload: unknown) {
    if (reply.statusCode < 400) await listener.sync();
    return payload;
  };
}

/** Route hook (onRequest, so before validation): any signed-in person (the benchmark's routes). */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthenticated();
}

/**
 * Route hook (onRequest): the policy's answer for this action on this kind of record (anonymous → 401,
 * not allowed → 403). Rules that depend on the record itself are asked again once it is loaded.
 */
export function authorize(
  { action, resource, record }: Permission,
  publicDirectory = false,
): onRequestAsyncHookHandler {
  return async (request) => {
    if (!request.user) {
      if (visitorMay(action, resource, publicDirectory)) return;
      throw unauthenticated();
    }
    if (!can(request.user, action, resource, record)) throw forbidden(refusal(action, resource));
  };
}

/** A shop's page, products and offers are its managers' too: a refusal there says so. */
function refusal(action: Permission['action'], resource: Permission['resource']): string | undefined {
  const shopRecord = resource === 'shop' || resource === 'product' || resource === 'offer';
  return shopRecord && action !== 'read' ? NOT_YOUR_SHOP : undefined;
}
