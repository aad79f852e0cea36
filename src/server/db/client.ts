import { EventEmitter } from 'node:events';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { CACHE_CHANNEL } from './cache-channel';
import { type EmbeddedOptions, type EmbeddedWorker, startEmbeddedWorker } from './embedded-worker';
import type { PgliteWorkerMessage } from './pglite-worker';
import * as schema from './schema';

/** The query builder over the pool; `$client` is the pool (the write path takes a connection of its own). */
export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/**
 * What a worker thread needs to open a connection of its own to the same database (serialisable: it
 * crosses as `workerData`). The import check's worker uses it (docs/decisions/022).
 */
export interface WorkerConnection {
  connectionString: string;
  /**
   * Embedded: the connection reaches PGlite's one session, which the pool's connection shares. Each
   * query on it must be run in a turn the server gives (the pool's client held meanwhile, so nothing of
   * the pool's can land between its messages): see check-process.ts.
   */
  sharedSession?: true;
}

export interface Database {
  kind: 'embedded' | 'postgres';
  pool: pg.Pool;
  db: Db;
  /** Gzip'd copy of an embedded database's files (see PGlite's dumpDataDir); embedded only. */
  dump?: () => Promise<Uint8Array>;
  /**
   * Embedded only: the notifications on the channel of the session cache (auth/session-cache.ts) that
   * came back on any of the pool's connections ('notification', payload), and each new connection
   * ('connect') or lost one ('lost'). The one session LISTENs from the start.
   */
  notifications?: EventEmitter;
  /**
   * The pool's own settings, for another process's connection (the import check's). Embedded, it is
   * marked `sharedSession`: PGlite's socket server queues each protocol message on its own, so that
   * connection's messages could land between the pool's Parse and Bind and take its unnamed statement;
   * it queries only while the server holds the pool's client for it (decision 022, seventh amendment).
   */
  workerConnection?: WorkerConnection;
  /**
   * Embedded only: a clock (ms) that stands still while the server's own code holds the pool's one client,
   * i.e. while nothing but that client can commit on PGlite's session, whose commits' notifications come
   * back on it. The session cache counts its bound on this clock (decision 027, first amendment): a long
   * write transaction does not use up what the cache may trust.
   */
  freeTime?: () => number;
  close(): Promise<void>;
}

/**
 * The time PGlite's one session was not held by the server's own code: stopped while the pool's client is
 * checked out (a query, a transaction), running while it is idle or lent to another connection (the import
 * check's turns, whose commits come back on that connection, not on the pool's).
 */
class FreeTimeClock {
  private stoppedAt: number | null = null;
  private stoppedFor = 0;

  now = (): number => (this.stoppedAt ?? performance.now()) - this.stoppedFor;

  stop(): void {
    if (this.stoppedAt === null) this.stoppedAt = performance.now();
  }

  run(): void {
    if (this.stoppedAt === null) return;
    this.stoppedFor += performance.now() - this.stoppedAt;
    this.stoppedAt = null;
  }
}

const freeTimeClocks = new WeakMap<pg.Pool, FreeTimeClock>();

/**
 * The pool's client, just taken, is lent to another connection of the embedded session (an import
 * check's turn): its commits' notifications would not reach the server, so the free-time clock runs.
 */
export function lendSession(pool: pg.Pool): void {
  freeTimeClocks.get(pool)?.run();
}

/**
 * Starts PGlite on a worker thread behind a private Unix socket and connects to it with `pg`.
 * PGlite serves one connection, one query at a time: the pool has a single client, and a transaction
 * holds every other query back — exactly what PGlite does in-process, minus blocking the event loop.
 * `started`: a worker main.ts already started (see db/early-embedded.ts).
 */
export async function openEmbedded(
  options: EmbeddedOptions = {},
  started?: EmbeddedWorker,
): Promise<Database> {
  const { worker, socketDir, port, ready, removeSocketDir } = started ?? startEmbeddedWorker(options);
  try {
    await ready;
  } catch (error) {
    removeSocketDir();
    throw error;
  }

  const pool = new pg.Pool({
    host: socketDir,
    port,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    idleTimeoutMillis: 0,
  });
  pool.on('error', () => {
    // A dropped idle connection is replaced on the next query; nothing to do here.
  });
  const clock = new FreeTimeClock();
  freeTimeClocks.set(pool, clock);
  pool.on('acquire', () => clock.stop());
  pool.on('release', () => clock.run());
  // PGlite's one session answers a NOTIFY on the connection whose commit sent it (decision 027): every
  // connection is watched. The session LISTENs once, below: it keeps that across connections (the socket
  // server only rolls back an open transaction when a connection closes).
  const notifications = new EventEmitter();
  pool.on('connect', (client) => {
    client.on('notification', (message) => {
      if (message.channel === CACHE_CHANNEL) notifications.emit('notification', message.payload ?? '');
    });
    client.once('end', () => notifications.emit('lost'));
    notifications.emit('connect');
  });
  try {
    await pool.query(`LISTEN ${CACHE_CHANNEL}`);
  } catch (error) {
    await pool.end().catch(() => {});
    await worker.terminate();
    removeSocketDir();
    throw error;
  }

  const request = <T extends PgliteWorkerMessage['type']>(
    send: { type: 'close' | 'dump' },
    answer: T,
  ): Promise<Extract<PgliteWorkerMessage, { type: T }>> =>
    new Promise((resolve) => {
      const onMessage = (message: PgliteWorkerMessage) => {
        if (message.type !== answer) return;
        worker.off('message', onMessage);
        resolve(message as Extract<PgliteWorkerMessage, { type: T }>);
      };
      worker.on('message', onMessage);
      worker.postMessage(send);
    });

  let closed = false;
  return {
    kind: 'embedded',
    pool,
    db: drizzle(pool, { schema }),
    notifications,
    workerConnection: {
      connectionString: `postgresql://postgres@/postgres?host=${encodeURIComponent(socketDir)}&port=${port}`,
      sharedSession: true,
    },
    freeTime: clock.now,
    dump: async () => (await request({ type: 'dump' }, 'dump')).data,
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
      await request({ type: 'close' }, 'closed');
      await worker.terminate();
      removeSocketDir();
    },
  };
}

export async function openPostgres(url: string, maxConnections = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections });
  pool.on('error', () => {
    // An idle client lost its server connection; the pool replaces it on the next query.
  });
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

/**
 * Sends a Sync on an idle client and waits for the session's ReadyForQuery (5 s at most). Embedded, a
 * connection that shared PGlite's one session and died during a failed extended query left the session
 * skipping every message until a Sync: the next query on any connection would get no rows and no error
 * (db/pglite-socket.test.ts). The Sync ends that; on a healthy session it only costs a round trip.
 */
export async function resync(client: pg.PoolClient): Promise<void> {
  const connection = (client as unknown as { connection: EventEmitter & { sync(): void } }).connection;
  let done: () => void = () => undefined;
  const ready = () => done();
  const timer = setTimeout(ready, 5_000);
  await new Promise<void>((resolve) => {
    done = resolve;
    connection.once('readyForQuery', ready);
    connection.sync();
  });
  clearTimeout(timer);
  connection.off('readyForQuery', ready);
}
