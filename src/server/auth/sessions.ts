import { and, eq, gt, sql } from 'drizzle-orm';
import type { SessionUser } from '../../shared/auth';
import type { Db } from '../db/client';
import { catalogVersion, sessions, users } from '../db/schema';
import { newSessionToken, sha256 } from './tokens';

export const SESSION_COOKIE = 'mall_session';
/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** …and after this long in any case. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

type UserRow = typeof users.$inferSelect;

export function toSessionUser(row: UserRow): SessionUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    displayName: row.displayName,
    createdAt: row.createdAt.toISOString(),
    lastLogin: row.lastLogin?.toISOString() ?? null,
  };
}

type Executor = Pick<Db, 'insert' | 'delete'>;

/** A new random token; only its hash is stored. Returns the token for the cookie. */
export async function createSession(db: Executor, userId: string, now: Date): Promise<string> {
  const token = newSessionToken();
  await db.insert(sessions).values({
    tokenHash: sha256(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
  });
  return token;
}

export async function deleteSession(db: Executor, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, sha256(token)));
}

export interface ResolvedSession {
  user: SessionUser;
  /**
   * The directory's catalog_version, read in the same query (so before any data the request reads):
   * cached reads are valid while it is unchanged (see read-cache.ts).
   */
  catalogVersion: string;
}

/**
 * The session lookup runs on every signed-in request, so it is built once per database (a prepared
 * statement: Drizzle's query building cost more CPU than the query itself).
 */
function sessionLookup(db: Db) {
  return db
    .select({
      user: users,
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      catalogVersion: sql<string>`(select ${catalogVersion.version} from ${catalogVersion} where ${catalogVersion.id} = 1)::text`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        gt(sessions.lastSeenAt, sql.placeholder('idleSince')),
      ),
    )
    .limit(1)
    .prepare('resolve_session');
}
const sessionLookups = new WeakMap<Db, ReturnType<typeof sessionLookup>>();

/** The user behind a cookie's token, or null when it is unknown, expired or idle too long. */
export async function resolveSession(db: Db, token: string, now: Date): Promise<ResolvedSession | null> {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = sessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  const [row] = await lookup.execute({
    tokenHash: sha256(token),
    now,
    idleSince: new Date(now.getTime() - SESSION_IDLE_MS),
  });
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
  }
  return { user: toSessionUser(row.user), catalogVersion: row.catalogVersion };
}
