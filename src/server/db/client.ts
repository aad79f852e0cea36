import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { PgliteWorkerData, PgliteWorkerMessage } from './pglite-worker';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  kind: 'embedded' | 'postgres';
  pool: pg.Pool;
  db: Db;
  /** Gzip'd copy of an embedded database's files (see PGlite's dumpDataDir); embedded only. */
  dump?: () => Promise<Uint8Array>;
  close(): Promise<void>;
}

const runningFromSource = import.meta.url.endsWith('.ts');

export interface EmbeddedOptions {
  /** Folder of the database files; undefined for an in-memory database (tests). */
  dataDir?: string;
  loadDataDir?: Uint8Array;
}

/**
 * Starts PGlite on a worker thread behind a private Unix socket and connects to it with `pg`.
 * PGlite serves one connection, one query at a time: the pool has a single client, and a transaction
 * holds every other query back — exactly what PGlite does in-process, minus blocking the event loop.
 */
export async function openEmbedded(options: EmbeddedOptions = {}): Promise<Database> {
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-pg-'));
  fs.chmodSync(socketDir, 0o700);
  // Also when the process exits mid-start (a signal before the database is up).
  const removeSocketDir = () => fs.rmSync(socketDir, { recursive: true, force: true });
  process.on('exit', removeSocketDir);
  const port = 5432;
  const workerData: PgliteWorkerData = {
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    socketPath: path.join(socketDir, `.s.PGSQL.${port}`),
  };
  const entry = runningFromSource ? './pglite-worker-source.mjs' : './pglite-worker.js';
  const worker = new Worker(new URL(entry, import.meta.url), { workerData });
  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: PgliteWorkerMessage) => {
      if (message.type === 'ready') resolve();
      if (message.type === 'error')
        reject(new Error(`The embedded database could not start: ${message.message}`));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The embedded database stopped (exit code ${code})`)));
  });
  worker.removeAllListeners('exit');

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
    dump: async () => (await request({ type: 'dump' }, 'dump')).data,
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
      await request({ type: 'close' }, 'closed');
      await worker.terminate();
      process.off('exit', removeSocketDir);
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
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
