import { eq } from 'drizzle-orm';
import type { MallHours, OpeningHours } from '../../../shared/hours';
import type { Db } from '../../db/client';
import { mallHours } from '../../db/schema';
import type { Executor, WriteTx } from '../../write-path';

const toMallHours = (row: { hours: OpeningHours | null; updatedAt: Date | null } | undefined): MallHours => ({
  hours: row?.hours ?? null,
  updatedAt: row?.updatedAt?.toISOString() ?? null,
});

/** The mall's own opening hours: one row (migration 0009), read by everyone, set by admins. */
export function mallHoursRepository(db: Db) {
  return {
    async get(tx: Executor = db): Promise<MallHours> {
      const [row] = await tx
        .select({ hours: mallHours.hours, updatedAt: mallHours.updatedAt })
        .from(mallHours);
      return toMallHours(row);
    },

    /** Sets them; returns them before and after (the row is locked until the write's transaction ends). */
    async set(
      tx: WriteTx,
      hours: OpeningHours | null,
      at: Date,
    ): Promise<{ before: MallHours; after: MallHours }> {
      const [row] = await tx
        .select({ hours: mallHours.hours, updatedAt: mallHours.updatedAt })
        .from(mallHours)
        .where(eq(mallHours.id, 1))
        .for('update');
      // Upsert: a database whose row someone removed by hand still takes the hours.
      const [after] = await tx
        .insert(mallHours)
        .values({ id: 1, hours, updatedAt: at })
        .onConflictDoUpdate({ target: mallHours.id, set: { hours, updatedAt: at } })
        .returning({ hours: mallHours.hours, updatedAt: mallHours.updatedAt });
      return { before: toMallHours(row), after: toMallHours(after) };
    },
  };
}
