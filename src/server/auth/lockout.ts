import { and, eq, gte, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { signInAttempts } from '../db/schema';

/**
 * The sign-in lockout (docs/decisions/009). Attempts are counted per email and client address: 5 that
 * do not succeed within 15 minutes lock that email from that address for 15 minutes (the spec's
 * message). Over every address together an email may take 100 in 15 minutes (NIST SP 800-63B's ceiling
 * on consecutive failures), so guessing from many addresses is limited too — while a stranger's five
 * wrong passwords no longer lock the account's owner out.
 *
 * An attempt is counted before its password is checked, in one atomic statement: parallel guesses
 * (on one server or many) each take a place in the count, and those past the limit are refused unchecked.
 */
export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_FAILURES_ALL_ADDRESSES = 100;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;
export const LOCKOUT_DURATION_MS = 15 * 60 * 1000;
/** The address of the row that counts an email's attempts from every address. */
export const ALL_ADDRESSES = '*';

const limitOf = (address: string) =>
  address === ALL_ADDRESSES ? LOCKOUT_FAILURES_ALL_ADDRESSES : LOCKOUT_FAILURES;

/**
 * Counts a sign-in attempt for the email from this address (and from every address) before its password
 * is checked. False when the email is locked, or when earlier attempts still being checked already
 * reach the limit: then the password must not be checked at all.
 */
export async function claimAttempt(db: Db, email: string, address: string, now: Date): Promise<boolean> {
  const windowStart = new Date(now.getTime() - LOCKOUT_WINDOW_MS);
  // A count goes on while its window is open or its lock holds; otherwise this attempt starts a new one.
  const current = sql`(${signInAttempts.windowStartedAt} > ${windowStart} or ${signInAttempts.lockedUntil} > ${now})`;
  const rows = await db
    .insert(signInAttempts)
    .values([
      { email, address, failures: 1, windowStartedAt: now },
      { email, address: ALL_ADDRESSES, failures: 1, windowStartedAt: now },
    ])
    .onConflictDoUpdate({
      target: [signInAttempts.email, signInAttempts.address],
      set: {
        failures: sql`case when ${current} then ${signInAttempts.failures} + 1 else 1 end`,
        windowStartedAt: sql`case when ${current} then ${signInAttempts.windowStartedAt} else ${now}::timestamptz end`,
        lockedUntil: sql`case when ${current} then ${signInAttempts.lockedUntil} else null end`,
      },
    })
    .returning({
      address: signInAttempts.address,
      failures: signInAttempts.failures,
      lockedUntil: signInAttempts.lockedUntil,
    });
  return rows.every(
    (row) => !(row.lockedUntil && row.lockedUntil > now) && row.failures <= limitOf(row.address),
  );
}

/**
 * The attempt failed (wrong password, unknown email): it stays counted, and a count that has reached
 * its limit locks the email (from this address, or from all) for 15 minutes.
 */
export async function recordFailure(db: Db, email: string, address: string, now: Date): Promise<void> {
  const lockedUntil = new Date(now.getTime() + LOCKOUT_DURATION_MS);
  await db
    .update(signInAttempts)
    .set({ lockedUntil })
    .where(
      and(
        eq(signInAttempts.email, email),
        or(
          and(eq(signInAttempts.address, address), gte(signInAttempts.failures, LOCKOUT_FAILURES)),
          and(
            eq(signInAttempts.address, ALL_ADDRESSES),
            gte(signInAttempts.failures, LOCKOUT_FAILURES_ALL_ADDRESSES),
          ),
        ),
        sql`(${signInAttempts.lockedUntil} is null or ${signInAttempts.lockedUntil} <= ${now})`,
      ),
    );
}

/**
 * The attempt succeeded: this address starts a new count, and the count over every address gives back
 * this attempt's place (other addresses' failures stay counted).
 */
export async function recordSuccess(db: Db, email: string, address: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(signInAttempts)
      .where(and(eq(signInAttempts.email, email), eq(signInAttempts.address, address)));
    await tx
      .update(signInAttempts)
      .set({ failures: sql`greatest(${signInAttempts.failures} - 1, 0)` })
      .where(and(eq(signInAttempts.email, email), eq(signInAttempts.address, ALL_ADDRESSES)));
  });
}

/** Rows whose window has closed and whose lock has ended count nothing: the hourly prune removes them. */
export async function pruneSignInAttempts(db: Db, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - LOCKOUT_WINDOW_MS);
  const removed = await db
    .delete(signInAttempts)
    .where(
      and(
        lt(signInAttempts.windowStartedAt, windowStart),
        sql`(${signInAttempts.lockedUntil} is null or ${signInAttempts.lockedUntil} <= ${now})`,
      ),
    )
    .returning({ email: signInAttempts.email });
  return removed.length;
}
