import { eq } from 'drizzle-orm';
import type { SessionUser } from '../../shared/auth';
import type { Database, Db } from '../db/client';
import { sessions, type users } from '../db/schema';
import { newSessionToken, sha256 } from './tokens';

export const SESSION_COOKIE = 'mall_session';
/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** …and after this long in any case. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

type UserRow = Pick<
  typeof users.$inferSelect,
  'id' | 'email' | 'role' | 'displayName' | 'createdAt' | 'lastLogin'
>;

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
 * The lookup every signed-in request makes, as one constant SQL text: building it with Drizzle per
 * request cost more CPU than the query. Not a named prepared statement: the embedded database
 * multiplexes its socket connections onto one session, where a name prepared by one connection
 * collides with the next connection's (so do transaction-pooling proxies such as PgBouncer).
 */
const SESSION_LOOKUP = `
  select u.id, u.email, u.role, u.display_name as "displayName", u.created_at as "createdAt",
         u.last_login as "lastLogin", s.id as "sessionId", s.last_seen_at as "lastSeenAt",
         (select version from catalog_version where id = 1)::text as "catalogVersion"
    from sessions s
    join users u on u.id = s.user_id
   where s.token_hash = $1 and s.expires_at > $2 and s.last_seen_at > $3
   limit 1`;

interface SessionRow extends UserRow {
  sessionId: string;
  lastSeenAt: Date;
  catalogVersion: string;
}

/** The user behind a cookie's token, or null when it is unknown, expired or idle too long. */
export async function resolveSession(
  { db, pool }: Pick<Database, 'db' | 'pool'>,
  token: string,
  now: Date,
): Promise<ResolvedSession | null> {
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS);
  const { rows } = await pool.query<SessionRow>(SESSION_LOOKUP, [sha256(token), now, idleSince]);
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
  }
  return { user: toSessionUser(row), catalogVersion: row.catalogVersion };
}
