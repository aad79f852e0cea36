import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { StoreType } from '../../../shared/mall-profile';
import type { Place } from '../../../shared/place';
import type { Db } from '../../db/client';
import { placeNameKeys } from '../../db/place-name-keys';
import { amenities, categories, floors, shops } from '../../db/schema';
import type { Executor, WriteTx } from '../../write-path';

/** Categories and floors: the same queries on two tables ("places" of a shop in the directory). */
export interface PlaceKind {
  table: typeof categories | typeof floors;
  shopColumn: typeof shops.categoryId | typeof shops.floorId;
  /** "category" / "floor", for messages; and the resource of the permission policy and the log. */
  noun: 'category' | 'floor';
}

export const CATEGORY: PlaceKind = { table: categories, shopColumn: shops.categoryId, noun: 'category' };
export const FLOOR: PlaceKind = { table: floors, shopColumn: shops.floorId, noun: 'floor' };

/**
 * A place as the API answers it; floors carry their level (docs/decisions/018), categories their store
 * type (docs/decisions/034).
 */
export type PlaceRecord = Place & { level?: number; schemaType?: StoreType };

/** What a create or update may set: a floor's level, a category's store type too. */
export interface PlaceFields {
  name?: string;
  level?: number;
  schemaType?: StoreType;
}

export function placeRepository(db: Db, { table, shopColumn, noun }: PlaceKind) {
  const isFloor = noun === 'floor';
  // Floors are listed by level (Lower Ground, Ground, First…), categories by name.
  const order = isFloor ? [asc(floors.level)] : [asc(sql`lower(${table.name})`), asc(table.name)];
  const select = (tx: Executor) => {
    const shopCounts = tx
      .select({ placeId: shopColumn, shopCount: count().as('shop_count') })
      .from(shops)
      .groupBy(shopColumn)
      .as('shop_counts');
    return tx
      .select({
        id: table.id,
        name: table.name,
        createdAt: table.createdAt,
        shopCount: shopCounts.shopCount,
        level: isFloor ? floors.level : sql<null>`null`,
        schemaType: isFloor ? sql<null>`null` : categories.schemaType,
      })
      .from(table)
      .leftJoin(shopCounts, eq(shopCounts.placeId, table.id));
  };

  const toPlace = (row: {
    id: string;
    name: string;
    createdAt: Date;
    shopCount: number | null;
    level: number | null;
    schemaType: string | null;
  }): PlaceRecord => ({
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    shopCount: Number(row.shopCount ?? 0),
    ...(row.level === null ? {} : { level: row.level }),
    // Written only through StoreTypeField (the API's schemas); the column's default is 'Store'.
    ...(row.schemaType === null ? {} : { schemaType: row.schemaType as StoreType }),
  });

  async function find(id: string, tx: Executor = db): Promise<PlaceRecord | null> {
    const [row] = await select(tx).where(eq(table.id, id));
    return row ? toPlace(row) : null;
  }

  return {
    find,

    async list(tx: Executor = db): Promise<PlaceRecord[]> {
      return (await select(tx).orderBy(...order, asc(table.id))).map(toPlace);
    },

    /** The floor at `level`, other than `exceptId`: who holds a level an admin asks for. */
    async floorAtLevel(tx: Executor, level: number, exceptId?: string): Promise<{ name: string } | null> {
      const [row] = await tx
        .select({ name: floors.name })
        .from(floors)
        .where(exceptId ? and(eq(floors.level, level), ne(floors.id, exceptId)) : eq(floors.level, level));
      return row ?? null;
    },

    /**
     * Names are unique by how they look: the keys go with every write (docs/decisions/011). A floor
     * without a level gets one above the highest from the database's insert trigger (migration 0007).
     */
    async insert(
      tx: WriteTx,
      { name, level, schemaType }: { name: string; level?: number; schemaType?: StoreType },
    ): Promise<PlaceRecord> {
      const values = { name, ...placeNameKeys(name) };
      const [row] = isFloor
        ? await tx
            .insert(floors)
            // null: the trigger decides; the column is NOT NULL after it.
            .values({ ...values, level: level ?? sql`null` })
            .returning({
              id: floors.id,
              name: floors.name,
              createdAt: floors.createdAt,
              level: floors.level,
              schemaType: sql<null>`null`,
            })
        : await tx
            .insert(categories)
            // absent: the column's default, 'Store'
            .values({ ...values, ...(schemaType === undefined ? {} : { schemaType }) })
            .returning({
              id: categories.id,
              name: categories.name,
              createdAt: categories.createdAt,
              level: sql<null>`null`,
              schemaType: categories.schemaType,
            });
      if (!row) throw new Error('insert returned no row');
      return toPlace({ ...row, shopCount: 0 });
    },

    async update(
      tx: WriteTx,
      id: string,
      { name, level, schemaType }: PlaceFields,
    ): Promise<{ before: PlaceRecord; after: PlaceRecord } | null> {
      const [locked] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).for('update');
      const before = locked && (await find(id, tx));
      if (!before) return null;
      const set = {
        ...(name === undefined ? {} : { name, ...placeNameKeys(name) }),
        ...(isFloor && level !== undefined ? { level } : {}),
        ...(!isFloor && schemaType !== undefined ? { schemaType } : {}),
      };
      if (Object.keys(set).length > 0) await tx.update(table).set(set).where(eq(table.id, id));
      const after = await find(id, tx);
      if (!after) return null;
      return { before, after };
    },

    /** A floor's amenities, for the log of its delete (they go with it). */
    async amenitiesOf(tx: Executor, floorId: string): Promise<Array<{ kind: string; location: string }>> {
      if (!isFloor) return [];
      return tx
        .select({ kind: amenities.kind, location: amenities.location })
        .from(amenities)
        .where(eq(amenities.floorId, floorId))
        .orderBy(asc(amenities.kind), asc(amenities.location));
    },

    /**
     * Deletes a place no shop uses. The place's row is locked first: a shop being saved with it holds a
     * key-share lock on that row, so the count below waits for it and sees it. Null: no such place.
     */
    async delete(tx: WriteTx, id: string): Promise<{ deleted: PlaceRecord } | { inUse: PlaceRecord } | null> {
      const [locked] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).for('update');
      const place = locked && (await find(id, tx));
      if (!place) return null;
      if (place.shopCount > 0) return { inUse: place };
      await tx.delete(table).where(eq(table.id, id));
      return { deleted: place };
    },
  };
}
