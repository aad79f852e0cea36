import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import { type Actor, performWrite } from '../write-path';

export const AUDIT_PRUNE_ACTOR: Actor = { id: null, email: 'npm run audit:prune' };

/**
 * `npm run audit:prune -- --before DATE`: removes the entries made before the start of mall date `before`
 * and records that it ran, in the same transaction (the record is written after the delete, so it stays).
 * The only DELETE the table's trigger lets through: this transaction says so (migration 0006).
 */
export async function pruneAuditLog(
  db: Db,
  before: string,
  timeZone: string,
  now: () => Date = () => new Date(),
): Promise<number> {
  return performWrite(
    db,
    AUDIT_PRUNE_ACTOR,
    async ({ tx, record }) => {
      await tx.execute(sql`select set_config('mall.audit_prune', 'on', true)`);
      const removed = await tx
        .delete(auditLog)
        .where(lt(auditLog.at, sql`(${before}::date::timestamp at time zone ${timeZone})`))
        .returning({ id: auditLog.id });
      await tx.execute(sql`select set_config('mall.audit_prune', 'off', true)`);
      record({
        entityType: 'audit',
        entityId: null,
        entityName: 'Audit log',
        action: 'prune',
        detail: { before, timeZone, removed: removed.length },
      });
      return removed.length;
    },
    { now },
  );
}
