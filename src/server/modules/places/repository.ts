import { asc, count, eq, sql } from 'drizzle-orm';
import type { Place } from '../../../shared/place';
import type { Db } from '../../db/client';
import { placeNameKeys } from '../../db/place-name-keys';
import { categories, floors, shops } from '../../db/schema';
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

export function placeRepository(db: Db, { table, shopColumn }: PlaceKind) {
  const select = (tx: Executor) => {
    const shopCounts = tx
      .select({ placeId: shopColumn, shopCount: count().as('shop_count') })
      .from(shops)
      .groupBy(shopColumn)
      .as('shop_counts');
    return tx
      .select({ id: table.id, name: table.name, createdAt: table.createdAt, shopCount: shopCounts.shopCount })
      .from(table)
      .leftJoin(shopCounts, eq(shopCounts.placeId, table.id));
  };

  const toPlace = (row: { id: string; name: string; createdAt: Date; shopCount: number | null }): Place => ({
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    shopCount: Number(row.shopCount ?? 0),
  });

  async function find(id: string, tx: Executor = db): Promise<Place | null> {
    const [row] = await select(tx).where(eq(table.id, id));
    return row ? toPlace(row) : null;
  }

  return {
    find,

    async list(tx: Executor = db): Promise<Place[]> {
      return (await select(tx).orderBy(asc(sql`lower(${table.name})`), asc(table.name))).map(toPlace);
    },

    /** Names are unique by how they look: the keys go with every write (docs/decisions/011). */
    async insert(tx: WriteTx, name: string): Promise<Place> {
      const [row] = await tx
        .insert(table)
        .values({ name, ...placeNameKeys(name) })
        .returning({ id: table.id, name: table.name, createdAt: table.createdAt });
      if (!row) throw new Error('insert returned no row');
      return toPlace({ ...row, shopCount: 0 });
    },

    async rename(tx: WriteTx, id: string, name: string): Promise<{ before: Place; after: Place } | null> {
      const [locked] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).for('update');
      const before = locked && (await find(id, tx));
      if (!before) return null;
      await tx
        .update(table)
        .set({ name, ...placeNameKeys(name) })
        .where(eq(table.id, id));
      const after = await find(id, tx);
      if (!after) return null;
      return { before, after };
    },

    /**
     * Deletes a place no shop uses. The place's row is locked first: a shop being saved with it holds a
     * key-share lock on that row, so the count below waits for it and sees it. Null: no such place.
     */
    async delete(tx: WriteTx, id: string): Promise<{ deleted: Place } | { inUse: Place } | null> {
      const [locked] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).for('update');
      const place = locked && (await find(id, tx));
      if (!place) return null;
      if (place.shopCount > 0) return { inUse: place };
      await tx.delete(table).where(eq(table.id, id));
      return { deleted: place };
    },
  };
}
