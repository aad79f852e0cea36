import { lte, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { pruneSignInAttempts } from '../auth/lockout';
import { SESSION_IDLE_MS } from '../auth/sessions';
import type { Db } from '../db/client';
import { sessions } from '../db/schema';

export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Removes what can never count again: sessions past their 30 days or idle 7 days, and sign-in attempt
 * counts whose window has closed and whose lock has ended. Without it both tables grew for ever (an
 * attacker could add ~1,400 attempt rows a second). Safe on several servers at once: plain deletes.
 */
export async function pruneExpired(db: Db, now: Date): Promise<{ sessions: number; signInAttempts: number }> {
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS);
  const removed = await db
    .delete(sessions)
    .where(or(lte(sessions.expiresAt, now), lte(sessions.lastSeenAt, idleSince)))
    .returning({ id: sessions.id });
  return { sessions: removed.length, signInAttempts: await pruneSignInAttempts(db, now) };
}

/** Prunes once when the server is ready, then hourly; a failed run is logged and tried again next hour. */
export function schedulePrune(app: FastifyInstance, db: Db, now: () => Date): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = pruneExpired(db, now()).then(
      (counts) => {
        if (counts.sessions + counts.signInAttempts > 0) app.log.info(counts, 'pruned expired rows');
      },
      (error: unknown) => app.log.warn({ err: error }, 'pruning expired rows failed'),
    );
  };
  app.addHook('onReady', async () => {
    run();
    timer = setInterval(run, PRUNE_INTERVAL_MS).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    // The database closes after the server: let a run in progress finish first.
    await running;
  });
}
