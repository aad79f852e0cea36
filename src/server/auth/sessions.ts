import DataLoader from 'dataloader';
import { eq } from 'drizzle-orm';
import type { SessionUser } from '../../shared/auth';
import type { Database, Db } from '../db/client';
import { sessions, type users } from '../db/schema';
import type { CachedSession, SessionCache } from './session-cache';
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

/** A user row, with the shops the person manages (none for a new account). */
export function toSessionUser(row: UserRow & { managedShopIds?: string[] | null }): SessionUser {
  return {
    managedShopIds: row.managedShopIds ?? [],
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
 * The lookup signed-in requests make, as one constant SQL text (building it with Drizzle per request
 * cost more CPU than the query) that answers a batch of lookups at once: `i` is the lookup's position
 * in the batch. Each lookup brings its own clock, so a batch changes nothing about expiry. Not a named
 * prepared statement: transaction-pooling proxies such as PgBouncer hand one session's prepared names to
 * another connection.
 */
const SESSION_LOOKUP = `
  select k.i::int as "i", u.id, u.email, u.role, u.display_name as "displayName",
         u.created_at as "createdAt", u.last_login as "lastLogin", s.id as "sessionId",
         s.last_seen_at as "lastSeenAt", s.expires_at as "expiresAt",
         (select version from catalog_version where id = 1)::text as "catalogVersion",
         array(select m.shop_id::text from shop_managers m where m.user_id = u.id order by m.created_at, m.shop_id) as "managedShopIds"
    from unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) with ordinality as k(token_hash, now, idle_since, i)
    join sessions s on s.token_hash = k.token_hash and s.expires_at > k.now and s.last_seen_at > k.idle_since
    join users u on u.id = s.user_id`;

interface SessionRow extends UserRow {
  i: number;
  /** Read with every lookup: a manager removed from a shop loses it on the next request, on any server. */
  managedShopIds: string[];
  sessionId: string;
  lastSeenAt: Date;
  expiresAt: Date;
  catalogVersion: string;
}

interface Lookup {
  tokenHash: string;
  now: Date;
}

/** Most lookups one query answers; a larger batch is split. */
const MAX_BATCH = 128;

export type SessionResolver = (token: string, now: Date) => Promise<ResolvedSession | null>;

/**
 * Resolves session cookies, batching the lookups of requests that arrive together into one query
 * (DataLoader, dispatched with setImmediate: after every request of the current I/O turn has asked, and
 * only while fewer than `maxInFlight` lookup queries run). A busy server makes one database round trip
 * per batch instead of one per request; an idle one makes the same single query as before. Every
 * lookup is sent after its request arrived, so the session and catalog_version it returns are never
 * older than the request (docs/decisions/008).
 */
export function createSessionResolver(
  { db, pool }: Pick<Database, 'db' | 'pool'>,
  // Signed-in people and the catalogue version in memory, revoked by the database's notifications
  // (docs/decisions/027); without one, every request asks the database.
  cache?: SessionCache,
  // At most this many lookup queries at once (half the pool, at most 4). While
  // they run, the next batch stays open and gathers every request that arrives meanwhile, instead of
  // queueing one small query per event-loop turn behind them.
  maxInFlight = Math.max(1, Math.min(4, Math.floor((pool.options.max ?? 10) / 2))),
): SessionResolver {
  let inFlight = 0;
  const ready: (() => void)[] = [];
  const schedule = (dispatch: () => void) =>
    setImmediate(() => {
      if (inFlight < maxInFlight) dispatch();
      else ready.push(dispatch);
    });

  const loader = new DataLoader<Lookup, SessionRow | null>(
    async (lookups) => {
      inFlight++;
      // What the cache knew when the query was sent: an answer overtaken by a revocation is not kept.
      const generation = cache?.generation ?? 0;
      try {
        const { rows } = await pool.query<SessionRow>(SESSION_LOOKUP, [
          lookups.map((lookup) => lookup.tokenHash),
          lookups.map((lookup) => lookup.now.toISOString()),
          lookups.map((lookup) => new Date(lookup.now.getTime() - SESSION_IDLE_MS).toISOString()),
        ]);
        const found: (SessionRow | null)[] = lookups.map(() => null);
        for (const row of rows) {
          found[row.i - 1] = row;
          const lookup = lookups[row.i - 1];
          if (cache && lookup) cache.remember(lookup.tokenHash, cachedSession(row), generation);
        }
        if (cache && rows[0]) cache.rememberVersion(rows[0].catalogVersion, generation);
        return found;
      } finally {
        inFlight--;
        ready.shift()?.();
      }
    },
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: schedule },
  );

  const touch = async (tokenHash: string, sessionId: string, now: Date) => {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
    cache?.touched(tokenHash, now.getTime());
  };

  return async (token, now) => {
    const tokenHash = sha256(token);
    // The hot path: a session and a catalogue version the database has not revoked, no query.
    const cached = cache?.session(tokenHash, now.getTime(), SESSION_IDLE_MS);
    const version = cached && cache?.catalogVersion();
    if (cached && version) {
      if (now.getTime() - cached.lastSeenAt > TOUCH_INTERVAL_MS)
        await touch(tokenHash, cached.sessionId, now);
      return { user: cached.user, catalogVersion: version };
    }
    const row = await loader.load({ tokenHash, now });
    if (!row) return null;
    if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS)
      await touch(tokenHash, row.sessionId, now);
    return { user: toSessionUser(row), catalogVersion: row.catalogVersion };
  };
}

/**
 * The catalogue version for a request with no session (a visitor reading the public directory,
 * docs/decisions/034), so that its cached reads key on it as a signed-in person's do: from the session
 * cache when it knows it, else one small query shared by the visitors' requests that arrive in the same
 * I/O turn. Each is sent after every request it answers arrived, so the version is never older than
 * the request (as for session lookups, docs/decisions/008).
 */
export function createCatalogVersionResolver(
  { pool }: Pick<Database, 'pool'>,
  cache?: SessionCache,
): () => Promise<string> {
  let batch: Promise<string> | null = null;
  return () => {
    const known = cache?.catalogVersion();
    if (known) return Promise.resolve(known);
    batch ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      batch = null;
      const generation = cache?.generation ?? 0;
      const { rows } = await pool.query<{ version: string }>(
        'select version::text as version from catalog_version where id = 1',
      );
      const version = rows[0]?.version ?? '0';
      cache?.rememberVersion(version, generation);
      return version;
    });
    return batch;
  };
}

function cachedSession(row: SessionRow): CachedSession {
  return {
    user: toSessionUser(row),
    sessionId: row.sessionId,
    lastSeenAt: row.lastSeenAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
  };
}
