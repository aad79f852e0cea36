import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MALL_LOGO_MESSAGE, MallProfile, MallProfileInput } from '../../../shared/mall-profile';
import type { Db } from '../../db/client';
import { HttpError } from '../../errors';
import { FOREIGN_KEY_VIOLATION, pgError } from '../../lib/db-errors';
import { routeWriter, type Snapshot } from '../../write-path';
import { describeImage } from '../images/routes';
import { mallProfileRepository } from './repository';

/** A logo key no stored image has (the foreign key refused it): said under the field. */
function profileWriteError(error: unknown): HttpError | null {
  const cause = pgError(error);
  if (cause?.code === FOREIGN_KEY_VIOLATION && cause.constraint === 'mall_profile_logo_image_images_key_fk')
    return new HttpError(400, 'VALIDATION', MALL_LOGO_MESSAGE, { logo: MALL_LOGO_MESSAGE });
  return null;
}

/** What the log shows of the profile: every field as the form shows it, the logo as an image. */
const snapshot = ({ updatedAt: _at, logo, ...fields }: MallProfile): Snapshot => ({
  ...fields,
  logo: describeImage(logo),
});

/**
 * /api/mall/profile: the mall's name, address, phone, map position, currency, logo and public URL
 * (docs/decisions/034). Public to read (the public pages and their structured data show it); admins set
 * it. The logo is uploaded and removed at /api/mall/profile/logo (modules/images, as a shop's logo).
 */
export const mallProfileRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date }> = async (
  app,
  { db, now },
) => {
  const repository = mallProfileRepository(db);
  const write = routeWriter(db, now, profileWriteError);

  app.get(
    '/',
    { config: { cache: { varies: ['catalog'] } }, schema: { response: { 200: MallProfile } } },
    () => repository.get(),
  );

  app.put(
    '/',
    {
      config: { permission: { action: 'update', resource: 'mall' } },
      schema: { body: MallProfileInput, response: { 200: MallProfile } },
    },
    async (request) => {
      const { before, after } = await write(request, async ({ tx, record }) => {
        const changed = await repository.set(tx, request.body, now());
        record({
          entityType: 'mall',
          entityId: null,
          entityName: 'Mall profile',
          action: 'update',
          before: snapshot(changed.before),
          after: snapshot(changed.after),
        });
        return changed;
      });
      // The logo it replaced lost its row with the write (a trigger); its files go now (decision 020).
      if (before.logo !== after.logo) await app.imageStore.release([before.logo]);
      return after;
    },
  );
};
