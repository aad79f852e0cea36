// Starting PGlite's worker thread needs only Node's own modules, so main.ts can start it before it
// loads the rest of the server (Fastify, Drizzle, pg…): both then load at the same time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PgliteWorkerData, PgliteWorkerMessage } from './pglite-worker';

export interface EmbeddedOptions {
  /** Folder of the database files; undefined for an in-memory database (tests). */
  dataDir?: string;
  loadDataDir?: Uint8Array;
}

export interface EmbeddedWorker {
  worker: Worker;
  /** Folder of the private Unix socket (`.s.PGSQL.<port>` inside). */
  socketDir: string;
  port: number;
  /** Resolves once PGlite serves on the socket. */
  ready: Promise<void>;
  /** Removes the socket folder (also done at process exit). */
  removeSocketDir(): void;
  /** Stops a worker that was never handed to openEmbedded. */
  abandon(): Promise<void>;
}

const runningFromSource = import.meta.url.endsWith('.ts');

export function startEmbeddedWorker(options: EmbeddedOptions = {}): EmbeddedWorker {
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-pg-'));
  fs.chmodSync(socketDir, 0o700);
  // Also when the process exits mid-start (a signal before the database is up).
  const removeSocketDir = () => {
    process.off('exit', removeSocketDir);
    fs.rmSync(socketDir, { recursive: true, force: true });
  };
  process.on('exit', removeSocketDir);
  const port = 5432;
  const workerData: PgliteWorkerData = {
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    socketPath: path.join(socketDir, `.s.PGSQL.${port}`),
  };
  const entry = runningFromSource ? './pglite-worker-source.mjs' : './pglite-worker.js';
  const worker = new Worker(new URL(entry, import.meta.url), { workerData });
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: PgliteWorkerMessage) => {
      if (message.type === 'ready') resolve();
      if (message.type === 'error')
        reject(new Error(`The embedded database could not start: ${message.message}`));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The embedded database stopped (exit code ${code})`)));
  }).then(() => {
    worker.removeAllListeners('exit');
  });
  // Whoever awaits `ready` sees a failure; until then it must not count as unhandled.
  ready.catch(() => {});
  return {
    worker,
    socketDir,
    port,
    ready,
    removeSocketDir,
    async abandon() {
      await worker.terminate();
      removeSocketDir();
    },
  };
}
