import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Synonym, SynonymInput, SynonymList } from '../../../shared/insights';
import type { Db } from '../../db/client';
import { errorAnswers, NoContent } from '../../errors';
import { routeWriter } from '../../write-path';
import {
  synonymName,
  synonymNotFound,
  synonymRepository,
  synonymSnapshot,
  synonymWriteError,
} from './repository';

const IdParams = z.strictObject({ id: z.uuid('Not found') });

/**
 * Search synonyms (docs/decisions/035): the mall office adds "loo → toilets" and every server's search
 * uses it at once (the table's trigger raises the catalogue version; search reads the synonyms per version).
 * A file of them goes through the shared CSV import as its `synonyms` kind (docs/decisions/038).
 */
export const synonymRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date }> = async (app, { db, now }) => {
  const repository = synonymRepository(db);
  const write = routeWriter(db, now, synonymWriteError);

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'synonym' } },
      schema: { response: { 200: SynonymList } },
    },
    async () => ({ items: await repository.list() }),
  );

  app.post(
    '/',
    {
      config: { permission: { action: 'create', resource: 'synonym' } },
      schema: { body: SynonymInput, response: { 201: Synonym, ...errorAnswers(409) } },
    },
    async (request, reply) => {
      const synonym = await write(request, async ({ tx, record }) => {
        const created = await repository.insert(tx, request.body);
        record({
          entityType: 'synonym',
          entityId: created.id,
          entityName: synonymName(created),
          action: 'create',
          after: synonymSnapshot(created),
        });
        return created;
      });
      return reply.status(201).send(synonym);
    },
  );

  app.delete(
    '/:id',
    {
      config: { permission: { action: 'delete', resource: 'synonym' } },
      schema: { params: IdParams, response: { 204: NoContent, ...errorAnswers(404) } },
    },
    async (request, reply) => {
      await write(request, async ({ tx, record }) => {
        const deleted = await repository.delete(tx, request.params.id);
        if (!deleted) throw synonymNotFound();
        record({
          entityType: 'synonym',
          entityId: deleted.id,
          entityName: synonymName(deleted),
          action: 'delete',
          before: synonymSnapshot(deleted),
        });
      });
      return reply.status(204).send();
    },
  );
};
