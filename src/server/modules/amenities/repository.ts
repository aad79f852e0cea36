import { and, asc, eq } from 'drizzle-orm';
import {
  AMENITY_KINDS,
  AMENITY_LABELS,
  type Amenity,
  type AmenityInput,
  type AmenityKind,
  type AmenityPatch,
  type FloorGuide,
  type FloorGuideAmenity,
  type FloorGuideShop,
} from '../../../shared/amenity';
import type { Pin } from '../../../shared/floor-plan';
import type { Db } from '../../db/client';
import { amenities, categories, floors, shops } from '../../db/schema';
import { HttpError } from '../../errors';
import { FOREIGN_KEY_VIOLATION, pgError } from '../../lib/db-errors';
import { type Executor, readsOn, type Snapshot, type WriteTx } from '../../write-path';

export const amenityNotFound = () => new HttpError(404, 'NOT_FOUND', 'This amenity does not exist');

/** A floor id no floor has is a field error, like an empty one. */
export function amenityWriteError(error: unknown): HttpError | null {
  const cause = pgError(error);
  if (cause?.code === FOREIGN_KEY_VIOLATION && cause.constraint?.includes('floor'))
    return new HttpError(400, 'VALIDATION', 'Floor is required', { floorId: 'Floor is required' });
  return null;
}

const columns = {
  id: amenities.id,
  floorId: amenities.floorId,
  floor: floors.name,
  level: floors.level,
  kind: amenities.kind,
  location: amenities.location,
  createdAt: amenities.createdAt,
};
type Row = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] };

const toAmenity = ({ level: _level, ...row }: Row): Amenity => ({
  ...row,
  kind: row.kind as AmenityKind,
  createdAt: row.createdAt.toISOString(),
});

const KIND_ORDER = new Map<string, number>(AMENITY_KINDS.map((kind, index) => [kind, index]));
/** Units and locations as people count them: "G-2" before "G-10"; any case, accents aside. */
const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** On a floor: by the fixed order of kinds (the information desk first), then by where. */
type Sortable = { id: string; kind: string; location: string };
function byKindThenLocation(a: Sortable, b: Sortable) {
  return (
    (KIND_ORDER.get(a.kind) ?? 99) - (KIND_ORDER.get(b.kind) ?? 99) ||
    natural.compare(a.location, b.location) ||
    a.id.localeCompare(b.id)
  );
}

/** A floor's shops by unit: "Unit G-02" before "Unit G-11"; shops that give no location last, by name. */
export function byUnit(
  a: Pick<FloorGuideShop, 'id' | 'name' | 'location'>,
  b: Pick<FloorGuideShop, 'id' | 'name' | 'location'>,
): number {
  if (!a.location !== !b.location) return a.location ? -1 : 1;
  return (
    natural.compare(a.location, b.location) || natural.compare(a.name, b.name) || a.id.localeCompare(b.id)
  );
}

/** Both columns or none (the database's CHECK): the pin, or null. */
export const pinOf = (x: number | null, y: number | null): Pin | null =>
  x !== null && y !== null ? { x, y } : null;

/** An amenity as the audit log shows it: its kind by name, its floor by name. */
export function amenitySnapshot(amenity: Amenity): Snapshot {
  return { kind: AMENITY_LABELS[amenity.kind], floor: amenity.floor, location: amenity.location };
}

/** "Lift (Ground Floor)": how the log names an amenity. */
export const amenityName = (amenity: Amenity) => `${AMENITY_LABELS[amenity.kind]} (${amenity.floor})`;

export function amenityRepository(db: Db) {
  const select = (tx: Executor) =>
    tx.select(columns).from(amenities).innerJoin(floors, eq(floors.id, amenities.floorId));

  async function find(id: string, tx: Executor = db): Promise<Amenity | null> {
    const [row] = await select(tx).where(eq(amenities.id, id));
    return row ? toAmenity(row) : null;
  }

  return {
    find,

    /** Every amenity of the mall (a small list): by floor level, then kind, then location. */
    async list(tx: Executor = db): Promise<Amenity[]> {
      const rows = await select(tx).orderBy(asc(floors.level));
      return rows.sort((a, b) => a.level - b.level || byKindThenLocation(a, b)).map(toAmenity);
    },

    async insert(tx: WriteTx, input: AmenityInput & { location?: string }): Promise<Amenity> {
      const [row] = await tx
        .insert(amenities)
        .values({ floorId: input.floorId, kind: input.kind, location: input.location })
        .returning({ id: amenities.id });
      const created = row && (await find(row.id, tx));
      if (!created) throw new Error('insert returned no row');
      return created;
    },

    async update(
      tx: WriteTx,
      id: string,
      patch: AmenityPatch,
    ): Promise<{ before: Amenity; after: Amenity } | null> {
      const [locked] = await select(tx).where(eq(amenities.id, id)).for('update', { of: amenities });
      if (!locked) return null;
      const before = toAmenity(locked);
      const { floorId, kind, location } = patch;
      const set = {
        ...(floorId === undefined ? {} : { floorId }),
        ...(kind === undefined ? {} : { kind }),
        ...(location === undefined ? {} : { location }),
      };
      if (Object.keys(set).length > 0) await tx.update(amenities).set(set).where(eq(amenities.id, id));
      const after = await find(id, tx);
      if (!after) return null;
      return { before, after };
    },

    async delete(tx: WriteTx, id: string): Promise<Amenity | null> {
      const [locked] = await select(tx).where(eq(amenities.id, id)).for('update', { of: amenities });
      if (!locked) return null;
      await tx.delete(amenities).where(eq(amenities.id, id));
      return toAmenity(locked);
    },

    /**
     * The shoppers' Floors page: every floor by level, with its shops by unit and its amenities. Three
     * queries over small tables (a mall has a few floors, at most a few thousand shops).
     */
    async guide(floorId?: string, shopId?: string, tx: Executor = db): Promise<FloorGuide> {
      const [floorRows, shopRows, amenityRows] = await readsOn(tx, db, [
        () =>
          tx
            .select({ id: floors.id, name: floors.name, level: floors.level, planImage: floors.planImage })
            .from(floors)
            .where(floorId ? eq(floors.id, floorId) : undefined)
            .orderBy(asc(floors.level)),
        () =>
          tx
            .select({
              id: shops.id,
              slug: shops.slug,
              name: shops.name,
              floorId: shops.floorId,
              category: categories.name,
              location: shops.location,
              pinX: shops.pinX,
              pinY: shops.pinY,
            })
            .from(shops)
            .innerJoin(categories, eq(categories.id, shops.categoryId))
            .where(
              and(
                floorId ? eq(shops.floorId, floorId) : undefined,
                shopId ? eq(shops.id, shopId) : undefined,
              ),
            ),
        () =>
          tx
            .select({
              id: amenities.id,
              floorId: amenities.floorId,
              kind: amenities.kind,
              location: amenities.location,
              pinX: amenities.pinX,
              pinY: amenities.pinY,
            })
            .from(amenities)
            .where(floorId ? eq(amenities.floorId, floorId) : undefined),
      ] as const);
      const entries = new Map(
        floorRows.map((floor) => [
          floor.id,
          {
            ...floor,
            shops: [] as FloorGuideShop[],
            amenities: [] as FloorGuideAmenity[],
          },
        ]),
      );
      for (const { floorId, pinX, pinY, ...shop } of shopRows)
        entries.get(floorId)?.shops.push({ ...shop, pin: pinOf(pinX, pinY) });
      for (const { floorId, pinX, pinY, ...amenity } of amenityRows)
        entries
          .get(floorId)
          ?.amenities.push({ ...amenity, kind: amenity.kind as AmenityKind, pin: pinOf(pinX, pinY) });
      const guide = [...entries.values()];
      for (const entry of guide) {
        entry.shops.sort(byUnit);
        entry.amenities.sort(byKindThenLocation);
      }
      return { floors: guide };
    },
  };
}
