// Runs PGlite on its own thread and serves it on a private Unix socket, so that its queries — which run
// on the thread that calls them — never hold up the HTTP server's event loop. The app talks to it with
// the same `pg` driver it uses for a PostgreSQL server.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface PgliteWorkerData {
  /** Folder of the database files; undefined for an in-memory database. */
  dataDir: string | undefined;
  /** A gzip'd tarball from `dumpDataDir`, opened instead of initdb (fast migrated test databases). */
  loadDataDir?: Uint8Array;
  socketPath: string;
}

export type PgliteWorkerMessage =
  | { type: 'ready' }
  | { type: 'error'; message: string }
  | { type: 'closed' }
  | { type: 'dump'; data: Uint8Array };

const data = workerData as PgliteWorkerData;
const port = parentPort;
if (!port) throw new Error('pglite-worker must run as a worker thread');

async function main() {
  const db = await PGlite.create({
    dataDir: data.dataDir,
    extensions: { pg_trgm, unaccent },
    ...(data.loadDataDir ? { loadDataDir: new Blob([data.loadDataDir as Uint8Array<ArrayBuffer>]) } : {}),
  });
  // The app's pool holds one connection at a time, but `pg`'s pool drops a connection after any failed
  // query and opens a new one at once, before this server has noticed the old one closing: with room
  // for only one, that reconnect would be refused. The socket server queues queries of all connections
  // on PGlite's one session anyway.
  const server = new PGLiteSocketServer({ db, path: data.socketPath, maxConnections: 4 });
  await server.start();

  port?.on('message', async (message: { type: 'close' } | { type: 'dump' }) => {
    if (message.type === 'dump') {
      const blob = (await db.dumpDataDir('gzip')) as Blob;
      port.postMessage({ type: 'dump', data: new Uint8Array(await blob.arrayBuffer()) });
      return;
    }
    await server.stop();
    await db.close();
    port.postMessage({ type: 'closed' } satisfies PgliteWorkerMessage);
  });
  port?.postMessage({ type: 'ready' } satisfies PgliteWorkerMessage);
}

main().catch((error: unknown) => {
  port.postMessage({
    type: 'error',
    message: error instanceof Error ? error.message : String(error),
  } satisfies PgliteWorkerMessage);
});
