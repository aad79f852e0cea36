import { MALL_NAME_DEFAULT, type MallProfile } from '../../../shared/mall-profile';
import type { Db } from '../../db/client';
import { mallProfile } from '../../db/schema';
import type { Executor } from '../../write-path';

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
  };
}
