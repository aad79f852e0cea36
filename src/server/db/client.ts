import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type EmbeddedLog, type EmbeddedServer, startEmbeddedPostgres } from './embedded-postgres';
import * as schema from './schema';

/** The query builder over the pool; `$client` is the pool (the write path takes a connection of its own). */
export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/**
 * What another process needs to open a connection of its own to the same database (serialisable: it
 * crosses to the import check's process).
 */
export interface WorkerConnection {
  connectionString: string;
}

export interface Database {
  /** embedded: the PostgreSQL server this process started on MALL_DATA_DIR; postgres: DATABASE_URL's. */
  kind: 'embedded' | 'postgres';
  pool: pg.Pool;
  db: Db;
  workerConnection: WorkerConnection;
  /** Embedded: the server process this process supervises. */
  server?: EmbeddedServer;
  close(): Promise<void>;
}

function poolFor(url: string, maxConnections: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections });
  pool.on('error', () => {
    // An idle client lost its server connection; the pool replaces it on the next query.
  });
  // A client checked out of the pool (a write's transaction, a migration) has no listener of the pool's:
  // the server going away mid-transaction would be an unhandled 'error' and end the process. Its query
  // fails with the same error, which the caller handles (errors.ts answers 503 for a lost database).
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

export async function openPostgres(url: string, maxConnections = 10): Promise<Database> {
  const pool = poolFor(url, maxConnections);
  let closed = false;
  return {
    kind: 'postgres',
    pool,
    db: drizzle(pool, { schema }),
    workerConnection: { connectionString: url },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** Restarts of a database that keeps stopping, after which the server gives up (RESTART_WINDOW_MS). */
export const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 10 * 60_000;
const RESTART_WAIT_MS = 60_000;

export interface EmbeddedOpenOptions {
  log?: EmbeddedLog;
  maxConnections?: number;
  /**
   * The database stopped without being asked (killed, crashed) and could not be restarted, or stopped
   * MAX_RESTARTS times within ten minutes: `reason` is one line for the operator. Until then each stop
   * is followed by a restart (PostgreSQL's crash recovery), and queries meanwhile fail (503).
   */
  onGiveUp?: (reason: string) => void;
}

/**
 * Starts the embedded PostgreSQL server on `dataDir` (embedded-postgres.ts) and opens a pool on it, and
 * restarts the server when it stops unexpectedly; close() ends the pool, then stops the server.
 */
export async function openEmbedded(dataDir: string, options: EmbeddedOpenOptions = {}): Promise<Database> {
  const { log, maxConnections = 10, onGiveUp } = options;
  let server = await startEmbeddedPostgres({ dataDir, log });
  const pool = poolFor(server.url, maxConnections);
  let closed = false;
  const restarts: number[] = [];
  let restarting: Promise<EmbeddedServer> | null = null;
  const supervise = (current: EmbeddedServer) =>
    current.onUnexpectedExit(async (reason) => {
      if (closed) return;
      const now = Date.now();
      restarts.push(now);
      while (restarts.length > 0 && (restarts[0] as number) < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length > MAX_RESTARTS) {
        onGiveUp?.(`${reason}, ${restarts.length} times within ten minutes`);
        return;
      }
      log?.error?.({ reason }, 'the embedded database stopped unexpectedly; restarting it');
      const attempt = restartWhenFree(current);
      restarting = attempt;
      try {
        const next = await attempt;
        if (closed) {
          await next.stop();
          return;
        }
        server = next;
        supervise(next);
      } catch (error) {
        if (!closed) onGiveUp?.(`${reason}, and it could not be restarted: ${(error as Error).message}`);
      } finally {
        if (restarting === attempt) restarting = null;
      }
    });
  /**
   * A killed postmaster's backends finish what they were running before they notice and exit, holding
   * its shared memory meanwhile ("pre-existing shared memory block is still in use"): the restart is tried
   * again for up to a minute while that is the reason.
   */
  async function restartWhenFree(current: EmbeddedServer): Promise<EmbeddedServer> {
    const deadline = Date.now() + RESTART_WAIT_MS;
    while (true) {
      try {
        return await startEmbeddedPostgres({ dataDir, log, socketDir: current.socketDir });
      } catch (error) {
        const busy = /shared memory block|already using the database|postmaster\.pid/i.test(
          (error as Error).message,
        );
        if (!busy || closed || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }
  supervise(server);
  return {
    kind: 'embedded',
    pool,
    db: drizzle(pool, { schema }),
    workerConnection: { connectionString: server.url },
    get server() {
      return server;
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end().catch(() => {});
      // A restart under way finishes first (and stops what it started: `closed`), then the current one.
      await restarting?.catch(() => {});
      await server.stop();
    },
  };
}
