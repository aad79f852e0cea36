import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionUser } from '../../shared/auth';
import type { Role } from '../../shared/roles';
import type { Db } from '../db/client';
import { forbidden, unauthenticated } from '../errors';
import { resolveSession, SESSION_COOKIE } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, resolved from the session cookie before every /api handler. */
    user: SessionUser | null;
  }
}

/** Resolves the session cookie into request.user for every API request. */
export const sessionPlugin = fp<{ db: Db; now: () => Date }>(async (app, { db, now }) => {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    request.user = token ? await resolveSession(db, token, now()) : null;
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
