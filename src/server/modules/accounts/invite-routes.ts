import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AdminInvite, CreatedAdminInvite } from '../../../shared/auth';
import type { Db } from '../../db/client';
import { errorAnswers, HttpError, NoContent } from '../../errors';
import { routeWriter } from '../../write-path';
import { createInvite, inviteName, listOpenInvites, revokeInvite } from './invites';

/** Admin invites: admins only (src/shared/permissions.ts). Never cached. */
export const inviteRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date }> = async (app, { db, now }) => {
  const write = routeWriter(db, now);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post(
    '/',
    {
      config: { permission: { action: 'create', resource: 'invite' } },
      schema: { response: { 201: z.object({ invite: CreatedAdminInvite }) } },
    },
    async (request, reply) => {
      const invite = await write(request, async ({ tx, actor, at, record }) => {
        const created = await createInvite(tx, actor.id, at);
        record({
          entityType: 'invite',
          entityId: created.id,
          entityName: inviteName(created.codeHint),
          action: 'create',
          after: { codeHint: created.codeHint, expiresAt: created.expiresAt },
        });
        return created;
      });
      return reply.status(201).send({ invite });
    },
  );

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'invite' } },
      schema: { response: { 200: z.object({ invites: z.array(AdminInvite) }) } },
    },
    async () => ({ invites: await listOpenInvites(db, now()) }),
  );

  app.delete(
    '/:id',
    {
      config: { permission: { action: 'delete', resource: 'invite' } },
      schema: {
        params: z.strictObject({ id: z.uuid('This invite does not exist or was already used') }),
        response: { 204: NoContent, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      await write(request, async ({ tx, record }) => {
        const revoked = await revokeInvite(tx, request.params.id);
        if (!revoked) throw new HttpError(404, 'NOT_FOUND', 'This invite does not exist or was already used');
        record({
          entityType: 'invite',
          entityId: revoked.id,
          entityName: inviteName(revoked.codeHint),
          action: 'delete',
          before: { codeHint: revoked.codeHint, expiresAt: revoked.expiresAt },
        });
      });
      return reply.status(204).send();
    },
  );
};
