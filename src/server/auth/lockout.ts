import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { signInAttempts } from '../db/schema';

export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;
export const LOCKOUT_DURATION_MS = 15 * 60 * 1000;

export async function isLocked(db: Db, email: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ lockedUntil: signInAttempts.lockedUntil })
    .from(signInAttempts)
    .where(eq(signInAttempts.email, email));
  return row?.lockedUntil != null && row.lockedUntil > now;
}

/**
 * Counts a failed sign-in in one atomic statement (so concurrent attempts on several servers all count).
 * Failures older than the window start a new count; the 5th within it locks the email for 15 minutes.
 */
export async function recordFailure(db: Db, email: string, now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - LOCKOUT_WINDOW_MS);
  const lockedUntil = new Date(now.getTime() + LOCKOUT_DURATION_MS);
  const inWindow = sql`${signInAttempts.windowStartedAt} > ${windowStart}`;
  const failures = sql`case when ${inWindow} then ${signInAttempts.failures} + 1 else 1 end`;
  await db
    .insert(signInAttempts)
    .values({ email, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: signInAttempts.email,
      set: {
        failures,
        windowStartedAt: sql`case when ${inWindow} then ${signInAttempts.windowStartedAt} else ${now} end`,
        lockedUntil: sql`case when ${failures} >= ${LOCKOUT_FAILURES} then ${lockedUntil}::timestamptz else ${signInAttempts.lockedUntil} end`,
      },
    });
}

export async function clearFailures(db: Db, email: string): Promise<void> {
  await db.delete(signInAttempts).where(eq(signInAttempts.email, email));
}
