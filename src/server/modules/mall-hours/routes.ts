import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { describeHours, MallHours, MallHoursInput } from '../../../shared/hours';
import type { Db } from '../../db/client';
import { routeWriter } from '../../write-path';
import { mallHoursRepository } from './repository';

/**
 * /api/mall-hours: the mall's own weekly hours and special days. Public to read (the landing page shows
 * today's hours to visitors, as the mall's doors do); admins set them. The answer is the hours, not an
 * "open now" verdict, so it varies with the directory only and may be cached (docs/decisions/017).
 */
export const mallHoursRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date }> = async (
  app,
  { db, now },
) => {
  const repository = mallHoursRepository(db);
  const write = routeWriter(db, now);

  app.get('/', { config: { cache: { varies: ['catalog'] } }, schema: { response: { 200: MallHours } } }, () =>
    repository.get(),
  );

  app.put(
    '/',
    {
      config: { permission: { action: 'update', resource: 'mall' } },
      schema: { body: MallHoursInput, response: { 200: MallHours } },
    },
    async (request) =>
      write(request, async ({ tx, record }) => {
        const { before, after } = await repository.set(tx, request.body.hours, now());
        record({
          entityType: 'mall',
          entityId: null,
          entityName: 'Mall hours',
          action: 'update',
          before: { hours: describeHours(before.hours) },
          after: { hours: describeHours(after.hours) },
        });
        return after;
      }),
  );
};
