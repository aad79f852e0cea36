import { eq } from 'drizzle-orm';
import { verifyPassword } from '../../auth/passwords';
import { createSession } from '../../auth/sessions';
import { sessions, users } from '../../db/schema';
import type { Executor, WriteTx } from '../../write-path';

/**
 * A person's own account: their display name, password and sessions. Sessions end only by deleting
 * their rows, so every server (and any cache of sessions a server keeps, which must check the table)
 * sees the change at once.
 */
export const accountRepository = {
  async byId(db: Executor, id: string) {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    return row ?? null;
  },

  async setDisplayName(tx: WriteTx, id: string, displayName: string | null) {
    const [row] = await tx.update(users).set({ displayName }).where(eq(users.id, id)).returning();
    return row ?? null;
  },

  /**
   * Locks the person's row and says whether `password`, found right against `checkedHash` before the
   * write began, is still their password: 'unchanged' while that hash is stored; 'rehashed' when another
   * request stored a new hash of the same password (a sign-in's rehash: checked again, only on such a
   * race); null when a password change landed since, or the account is gone.
   */
  async passwordStill(
    tx: WriteTx,
    id: string,
    checkedHash: string,
    password: string,
  ): Promise<'unchanged' | 'rehashed' | null> {
    const [row] = await tx
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, id))
      .for('update');
    if (!row) return null;
    if (row.passwordHash === checkedHash) return 'unchanged';
    return (await verifyPassword(password, row.passwordHash)) ? 'rehashed' : null;
  },

  /** Stores the new hash and ends every session of the person; returns how many there were. */
  async setPasswordHash(tx: WriteTx, id: string, passwordHash: string): Promise<number> {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, id));
    return this.endAllSessions(tx, id);
  },

  async endAllSessions(tx: WriteTx, id: string): Promise<number> {
    const ended = await tx.delete(sessions).where(eq(sessions.userId, id)).returning({ id: sessions.id });
    return ended.length;
  },

  /** A new session for the person (the one a password change hands the browser that made it). */
  startSession(tx: WriteTx, id: string, at: Date): Promise<string> {
    return createSession(tx, id, at);
  },
};
