import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionUser } from '../../shared/auth';
import type { Role } from '../../shared/roles';
import type { Database } from '../db/client';
import { forbidden, unauthenticated } from '../errors';
import { isProbe, matchedRoute } from '../lib/request-route';
import { createSessionResolver, SESSION_COOKIE } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, resolved from the session cookie before every /api handler. */
    user: SessionUser | null;
    /** catalog_version as the session lookup saw it; null without a session. */
    catalogVersion: string | null;
  }
}

/** Resolves the session cookie into request.user for every API request. */
export const sessionPlugin = fp<{ database: Database; now: () => Date }>(async (app, { database, now }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('catalogVersion', null);
  const resolveSession = createSessionResolver(database);
  app.addHook('onRequest', async (request) => {
    // Only for API routes the router matched (an unknown path needs no person), and not for the health
    // check, which answers load balancers who have no session.
    const route = matchedRoute(request);
    if (!route?.startsWith('/api/') || isProbe(request)) return;
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await resolveSession(token, now()) : null;
    request.user = session?.user ?? null;
    request.catalogVersion = session?.catalogVersion ?? null;
  });
});

/** Route hook (onRequest, so before validation): any signed-in person. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthenticated();
}

/** Route hook (onRequest): a signed-in person with this role (anonymous → 401, other role → 403). */
export function requireRole(role: Role) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.user) throw unauthenticated();
    if (request.user.role !== role) throw forbidden();
  };
}
