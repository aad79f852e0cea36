import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AuditEntry, AuditListQuery, AuditPage } from '../../../shared/audit';
import type { Db } from '../../db/client';
import {
  adminInvites,
  amenities,
  auditLog,
  categories,
  floors,
  importRuns,
  managerInvites,
  offers,
  products,
  shopManagers,
  shops,
  users,
} from '../../db/schema';
import { type Executor, readsOn } from '../../write-path';

/** Whether the entry's record still exists, per kind of record (the Activity screen links to it then). */
const entityExists = sql<boolean>`case ${auditLog.entityType}
  when 'shop' then exists (select 1 from ${shops} where ${shops.id} = ${auditLog.entityId})
  when 'product' then exists (select 1 from ${products} where ${products.id} = ${auditLog.entityId})
  when 'offer' then exists (select 1 from ${offers} where ${offers.id} = ${auditLog.entityId})
  when 'category' then exists (select 1 from ${categories} where ${categories.id} = ${auditLog.entityId})
  when 'floor' then exists (select 1 from ${floors} where ${floors.id} = ${auditLog.entityId})
  when 'amenity' then exists (select 1 from ${amenities} where ${amenities.id} = ${auditLog.entityId})
  when 'account' then exists (select 1 from ${users} where ${users.id} = ${auditLog.entityId})
  when 'invite' then exists (select 1 from ${adminInvites} where ${adminInvites.id} = ${auditLog.entityId})
    or exists (select 1 from ${managerInvites} where ${managerInvites.id} = ${auditLog.entityId})
  when 'membership' then exists (select 1 from ${shopManagers} where ${shopManagers.id} = ${auditLog.entityId})
  when 'import' then exists (select 1 from ${importRuns} where ${importRuns.id} = ${auditLog.entityId})
  else false end`;

/**
 * The start of mall date `day` (YYYY-MM-DD) in `timeZone`, as a timestamp; `daysLater` moves the date
 * before the zone is applied, so a day with a daylight-saving change is 23 or 25 hours long, as it is.
 */
const startOfDay = (day: string, timeZone: string, daysLater = 0) =>
  sql`((${day}::date + ${daysLater}::int)::timestamp at time zone ${timeZone})`;

/** An unapproved offer's review state (the admin's offer form has approved offers only). */
const entityReview = sql<'pending' | 'sent_back' | null>`case when ${auditLog.entityType} = 'offer' then
  (select ${offers.reviewState} from ${offers} where ${offers.id} = ${auditLog.entityId} and not ${offers.approved})
  end`;

type Row = typeof auditLog.$inferSelect & {
  entityExists: boolean;
  entityReview: 'pending' | 'sent_back' | null;
};

function toEntry(row: Row): AuditEntry {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    entityType: row.entityType as AuditEntry['entityType'],
    entityId: row.entityId,
    entityName: row.entityName,
    action: row.action as AuditEntry['action'],
    changes: row.changes,
    detail: row.detail ?? null,
    entityExists: row.entityExists,
    entityReview: row.entityReview ?? null,
    shopId: row.shopId,
  };
}

/** Reading the audit log. Writing it is the write path's alone (write-path.ts); nothing here changes it. */
export function auditRepository(db: Db) {
  return {
    /**
     * Newest first; dates are the mall's calendar days, `to` included. `shopId`: only entries about that
     * shop and what belongs to it (a shop manager's view of their own shop's history).
     */
    async list(
      query: z.output<typeof AuditListQuery>,
      timeZone: string,
      tx: Executor = db,
      shopId?: string,
    ): Promise<z.output<typeof AuditPage>> {
      const { entityType, entityId, actorId, from, to, page, pageSize } = query;
      const filters: SQL[] = [];
      if (shopId) filters.push(eq(auditLog.shopId, shopId));
      if (entityType) filters.push(eq(auditLog.entityType, entityType));
      if (entityId) filters.push(eq(auditLog.entityId, entityId));
      if (actorId) filters.push(eq(auditLog.actorId, actorId));
      if (from) filters.push(sql`${auditLog.at} >= ${startOfDay(from, timeZone)}`);
      if (to) filters.push(sql`${auditLog.at} < ${startOfDay(to, timeZone, 1)}`);
      const where = filters.length > 0 ? and(...filters) : undefined;
      const [rows, [total]] = await readsOn(tx, db, [
        () =>
          tx
            .select({
              id: auditLog.id,
              at: auditLog.at,
              actorId: auditLog.actorId,
              actorEmail: auditLog.actorEmail,
              entityType: auditLog.entityType,
              entityId: auditLog.entityId,
              entityName: auditLog.entityName,
              action: auditLog.action,
              changes: auditLog.changes,
              detail: auditLog.detail,
              shopId: auditLog.shopId,
              entityExists,
              entityReview,
            })
            .from(auditLog)
            .where(where)
            // Newest first: ids follow insertion (the primary key read backwards, no sort).
            .orderBy(desc(auditLog.id))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        () => tx.select({ n: count() }).from(auditLog).where(where),
      ] as const);
      return { items: rows.map(toEntry), total: total?.n ?? 0, page, pageSize };
    },

    /** Everyone the log names as having acted, with the email of their latest entry. */
    async actors(tx: Executor = db): Promise<{ id: string; email: string }[]> {
      const { rows } = await tx.execute<{ id: string; email: string }>(sql`
        select id, email from (
          select distinct on (${auditLog.actorId}) ${auditLog.actorId} as id, ${auditLog.actorEmail} as email
            from ${auditLog} where ${auditLog.actorId} is not null
            order by ${auditLog.actorId}, ${auditLog.id} desc) as actors
        order by lower(email)`);
      return rows;
    },
  };
}
