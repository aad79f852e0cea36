import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import type { SessionUser } from '../../shared/auth';
import { CACHE_CHANNEL } from '../db/cache-channel';

export { CACHE_CHANNEL };

/** What the cache keeps of a session: enough to check expiry with the request's own clock. */
export interface CachedSession {
  user: SessionUser;
  sessionId: string;
  lastSeenAt: number;
  expiresAt: number;
}

export interface SessionCacheOptions {
  /** The longest anything is trusted without the database confirming it (a lost notification's bound). */
  ttlMs?: number;
  /** Sessions kept at most (least recently used dropped first). */
  max?: number;
  /** The clock the bound is counted on (ms): `performance.now` unless a test gives one. */
  clock?: () => number;
}

export const SESSION_CACHE_TTL_MS = 5_000;

/**
 * Signed-in people and the catalogue version, in memory (docs/decisions/027). Used only while the
 * server is listening for the database's notifications: when not, every request asks the database, as
 * before. Any gap in listening, and anything the cache cannot place, clears everything (fail safe).
 *
 * Races: a lookup that was on its way while a notification arrived may carry what the notification
 * revoked. Every notification about people (and every clear) raises `generation`; a lookup's answer is
 * kept only if no such notification arrived between its sending and its answer. The catalogue version
 * only ever rises, so the higher of what a lookup read and what a notification said wins.
 */
export class SessionCache {
  /** Each session with the time (on `clock`) the database last confirmed it. */
  private readonly sessions: LRUCache<string, { session: CachedSession; at: number }>;
  private readonly ttlMs: number;
  private readonly clock: () => number;
  private version: { value: bigint; at: number } | null = null;
  private listening = false;
  /** Raised by every notification about people and every clear. */
  generation = 0;
  /** How many times everything was forgotten (tests, logs). */
  clears = 0;

  constructor(options: SessionCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? SESSION_CACHE_TTL_MS;
    this.clock = options.clock ?? (() => performance.now());
    // The bound is checked here, on `clock`, not by the LRU's own TTL (which counts wall time).
    this.sessions = new LRUCache({ max: options.max ?? 10_000 });
  }

  get active(): boolean {
    return this.listening;
  }

  /** The session for this token hash, if cached and still valid at `now` by its own expiry rules. */
  session(tokenHash: string, now: number, idleMs: number): CachedSession | undefined {
    if (!this.listening) return undefined;
    const kept = this.sessions.get(tokenHash);
    if (!kept) return undefined;
    if (this.clock() - kept.at > this.ttlMs) {
      this.sessions.delete(tokenHash);
      return undefined;
    }
    const entry = kept.session;
    if (entry.expiresAt <= now || entry.lastSeenAt <= now - idleMs) return undefined;
    return entry;
  }

  /** The catalogue version, if known from a lookup or notification within the bound. */
  catalogVersion(): string | null {
    if (!this.listening || !this.version) return null;
    if (this.clock() - this.version.at > this.ttlMs) return null;
    return this.version.value.toString();
  }

  /** Keeps a lookup's answer, unless a notification about people arrived since `generation`. */
  remember(tokenHash: string, entry: CachedSession, generation: number): void {
    if (!this.listening || generation !== this.generation) return;
    Object.freeze(entry.user.managedShopIds);
    Object.freeze(entry.user);
    this.sessions.set(tokenHash, { session: entry, at: this.clock() });
  }

  /** A version a lookup sent at `generation` read. */
  rememberVersion(version: string, generation: number): void {
    if (!this.listening || generation !== this.generation) return;
    this.raiseVersion(BigInt(version));
  }

  /** The server wrote a new last-seen time for this session. */
  touched(tokenHash: string, at: number): void {
    const entry = this.sessions.get(tokenHash)?.session;
    if (entry) entry.lastSeenAt = Math.max(entry.lastSeenAt, at);
  }

  /** A notification's payload (migration 0011): 'v:<version>', 'u:<id>,<id>…' or '*'. */
  handle(payload: string): void {
    if (payload.startsWith('v:')) {
      if (/^v:\d+$/.test(payload)) {
        this.raiseVersion(BigInt(payload.slice(2)));
        return;
      }
    } else if (payload.startsWith('u:')) {
      const ids = new Set(payload.slice(2).split(','));
      this.generation++;
      const gone: string[] = [];
      for (const [key, { session }] of this.sessions.entries()) if (ids.has(session.user.id)) gone.push(key);
      for (const key of gone) this.sessions.delete(key);
      return;
    }
    // '*', or anything not understood.
    this.clear();
  }

  /** Forgets everything. */
  clear(): void {
    this.generation++;
    this.clears++;
    this.sessions.clear();
    this.version = null;
  }

  /** Listening started (everything before it unknown) or stopped (nothing may be trusted). */
  setListening(listening: boolean): void {
    this.clear();
    this.listening = listening;
  }

  private raiseVersion(value: bigint): void {
    if (this.version && this.version.value > value) {
      this.version.at = this.clock();
      return;
    }
    this.version = { value, at: this.clock() };
  }
}

export interface ChangeListener {
  /**
   * Resolves once every notification committed before this call has reached this server's cache: a
   * write request waits for it before answering, so its author's next request sees the write.
   */
  sync(): Promise<void>;
  /** Settles once the first attempt to listen has succeeded or failed (the server starts after it). */
  started: Promise<void>;
  close(): Promise<void>;
}

const FENCE_TIMEOUT_MS = 2_000;
/** How the listening connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'super-mall session cache';
const MAX_BACKOFF_MS = 5_000;

/**
 * PostgreSQL: one dedicated connection LISTENs (not from the pool: a pooled connection is shared and
 * recycled). Lost, it reconnects with backoff; the cache is off meanwhile and starts empty again.
 */
export function listenOnPostgres(
  pool: pg.Pool,
  cache: SessionCache,
  log: { warn(details: object, message: string): void },
): ChangeListener {
  let client: pg.Client | null = null;
  let closed = false;
  let backoffMs = 100;
  let timer: NodeJS.Timeout | null = null;
  const fences = new Map<string, () => void>();

  let markStarted = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const releaseFences = () => {
    for (const release of fences.values()) release();
    fences.clear();
  };

  const connect = async (): Promise<void> => {
    timer = null;
    if (closed) return;
    const candidate = new pg.Client({
      ...(pool.options as pg.ClientConfig),
      application_name: LISTENER_APPLICATION_NAME,
    });
    candidate.on('notification', (message) => {
      if (message.channel !== CACHE_CHANNEL) return;
      const payload = message.payload ?? '';
      if (payload.startsWith('fence:')) {
        fences.get(payload)?.();
        fences.delete(payload);
      } else cache.handle(payload);
    });
    // 'end' follows; the error itself needs a listener so that it does not end the process.
    candidate.on('error', (error) => log.warn({ err: error }, 'session cache: notification connection lost'));
    let ended = false;
    candidate.once('end', () => {
      ended = true;
      // Only the connection in use matters; one that failed to start is retried below.
      if (client !== candidate) return;
      client = null;
      cache.setListening(false);
      releaseFences();
      if (!closed && !timer) timer = setTimeout(connect, backoffMs);
    });
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${CACHE_CHANNEL}`);
      if (closed || ended) {
        await candidate.end().catch(() => {});
        return;
      }
      client = candidate;
      backoffMs = 100;
      cache.setListening(true);
      markStarted();
    } catch (error) {
      markStarted();
      log.warn({ err: error }, 'session cache: cannot listen for notifications; retrying');
      candidate.end().catch(() => {});
      backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
      if (!closed && !timer) timer = setTimeout(connect, backoffMs);
    }
  };
  void connect();

  // One fence at a time on the listening connection (pg refuses overlapping queries on one client).
  // Writes that finish while a round waits its turn join it: their commits came before its fence is sent,
  // so its coming back covers them too.
  let waiting: Promise<'back' | 'late' | 'failed'> | null = null;
  let previous: Promise<unknown> = Promise.resolve();
  function fenceRound(listener: pg.Client): Promise<'back' | 'late' | 'failed'> {
    if (waiting) return waiting;
    const round = previous.then(async () => {
      // from here on the fence is being sent: a later write needs a round of its own
      waiting = null;
      const fence = `fence:${randomBytes(9).toString('base64url')}`;
      let timeout: NodeJS.Timeout | undefined;
      const arrived = new Promise<boolean>((resolve) => {
        fences.set(fence, () => resolve(true));
        timeout = setTimeout(() => resolve(false), FENCE_TIMEOUT_MS);
      });
      try {
        // Notifications reach a listener in the order their transactions committed: once this one is
        // back, every earlier one has been handled.
        await listener.query('select pg_notify($1, $2)', [CACHE_CHANNEL, fence]);
        return (await arrived) ? ('back' as const) : ('late' as const);
      } catch {
        return 'failed' as const;
      } finally {
        clearTimeout(timeout);
        fences.delete(fence);
      }
    });
    waiting = round;
    previous = round;
    return round;
  }

  return {
    started,
    async sync() {
      const listener = client;
      if (!listener) return;
      const outcome = await fenceRound(listener);
      if (outcome === 'late') {
        cache.clear();
        log.warn({}, 'session cache: a notification did not come back in time (is LISTEN supported here?)');
      } else if (outcome === 'failed') cache.clear();
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      releaseFences();
      cache.setListening(false);
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
