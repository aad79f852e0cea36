import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditActors, AuditListQuery, AuditPage } from '../../../shared/audit';
import type { Db } from '../../db/client';
import { auditRepository } from './repository';

/** /api/audit: the Activity screen's reads; admins only, never cached (it is not part of the catalogue). */
export const auditRoutes: FastifyPluginAsyncZod<{ db: Db; timeZone: string }> = async (
  app,
  { db, timeZone },
) => {
  const audit = auditRepository(db);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'audit' } },
      schema: { querystring: AuditListQuery, response: { 200: AuditPage } },
    },
    (request) => audit.list(request.query, timeZone),
  );

  app.get(
    '/actors',
    {
      config: { permission: { action: 'read', resource: 'audit' } },
      schema: { response: { 200: AuditActors } },
    },
    async () => ({ items: await audit.actors() }),
  );
};
