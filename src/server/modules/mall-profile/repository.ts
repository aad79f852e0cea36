import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { MALL_NAME_DEFAULT, type MallProfile, type MallProfileInput } from '../../../shared/mall-profile';
import type { Db } from '../../db/client';
import { mallProfile } from '../../db/schema';
import type { Executor, WriteTx } from '../../write-path';

type ProfileRow = typeof mallProfile.$inferSelect;

const DEFAULTS: MallProfile = {
  name: MALL_NAME_DEFAULT,
  streetAddress: '',
  locality: '',
  region: '',
  postalCode: '',
  country: '',
  phone: '',
  latitude: null,
  longitude: null,
  currency: 'INR',
  logo: null,
  publicUrl: '',
  updatedAt: null,
};

export const toMallProfile = (row: ProfileRow | undefined): MallProfile =>
  row
    ? {
        name: row.name,
        streetAddress: row.streetAddress,
        locality: row.locality,
        region: row.region,
        postalCode: row.postalCode,
        country: row.country,
        phone: row.phone,
        latitude: row.latitude,
        longitude: row.longitude,
        currency: row.currency,
        logo: row.logoImage,
        publicUrl: row.publicUrl,
        updatedAt: row.updatedAt?.toISOString() ?? null,
      }
    : DEFAULTS;

/** The mall's profile: one row (migration 0016), read by everyone, set by admins (docs/decisions/034). */
export function mallProfileRepository(db: Db) {
  return {
    async get(tx: Executor = db): Promise<MallProfile> {
      const [row] = await tx.select().from(mallProfile);
      return toMallProfile(row);
    },

    /**
     * Sets every field (the logo only when given: it has its own upload route); returns the profile before
     * and after, the row locked until the write's transaction ends. A logo given is an image the mall
     * stores (a foreign key); the one it replaces is released by the database (migration 0016).
     */
    async set(
      tx: WriteTx,
      input: z.output<typeof MallProfileInput>,
      at: Date,
    ): Promise<{ before: MallProfile; after: MallProfile }> {
      const [row] = await tx.select().from(mallProfile).where(eq(mallProfile.id, 1)).for('update');
      const { logo, ...fields } = input;
      const values = { ...fields, ...(logo === undefined ? {} : { logoImage: logo }), updatedAt: at };
      // Upsert: a database whose row someone removed by hand still takes the profile.
      const [after] = await tx
        .insert(mallProfile)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: mallProfile.id, set: values })
        .returning();
      return { before: toMallProfile(row), after: toMallProfile(after) };
    },
  };
}
