import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { type Actor, performWrite } from '../../write-path';

/** The command line as the audit log names it. */
export const ADMIN_CREATE_ACTOR: Actor = { id: null, email: 'npm run admin:create' };

/**
 * `npm run admin:create`: makes an admin account with this password, or makes the account with this
 * email an admin with it (recovery). Through the write path, so the log records it (a role change with
 * its before and after; the password never).
 */
export async function createOrPromoteAdmin(
  db: Db,
  email: string,
  passwordHash: string,
): Promise<'created' | 'promoted'> {
  return performWrite(db, ADMIN_CREATE_ACTOR, async ({ tx, record }) => {
    const [existing] = await tx
      .select({ id: users.id, email: users.email, role: users.role })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email))
      .for('update');
    if (existing) {
      await tx.update(users).set({ role: 'admin', passwordHash }).where(eq(users.id, existing.id));
      record({
        entityType: 'account',
        entityId: existing.id,
        entityName: existing.email,
        action: 'update',
        before: { role: existing.role },
        after: { role: 'admin' },
        // A password set is a change even when the role stays: said, never shown.
        detail: { passwordReset: true },
      });
      return 'promoted';
    }
    const [row] = await tx.insert(users).values({ email, role: 'admin', passwordHash }).returning();
    if (!row) throw new Error('user insert returned no row');
    record({
      entityType: 'account',
      entityId: row.id,
      entityName: row.email,
      action: 'create',
      after: { email: row.email, role: row.role },
    });
    return 'created';
  });
}
