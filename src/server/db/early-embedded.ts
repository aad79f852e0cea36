import fs from 'node:fs';
import path from 'node:path';
import { lockDataDir } from './data-dir-lock';
import { type EmbeddedWorker, startEmbeddedWorker } from './embedded-worker';

/** The embedded database, its data directory already locked and PGlite starting. */
export interface EarlyEmbedded {
  dataDir: string;
  /** No database files existed before this start (the demo mall goes into a brand-new one). */
  brandNew: boolean;
  worker: EmbeddedWorker;
  release(): void;
  /** Stops it, when it was not handed over (start-up failed or was stopped). */
  abandon(): Promise<void>;
}

export const pgDataDir = (dataDir: string) => path.join(dataDir, 'pgdata');

/**
 * Without DATABASE_URL, main.ts calls this first thing: it takes the data directory's lock and starts
 * PGlite's worker, which then boots while the rest of the server's modules load — start-up costs the
 * longer of the two instead of their sum. Uses the variables as env.ts reads them (empty = unset).
 * Returns null with DATABASE_URL, or when the lock is taken (the regular path then reports it).
 */
export function startEmbeddedEarly(source: NodeJS.ProcessEnv = process.env): EarlyEmbedded | null {
  if (source.DATABASE_URL) return null;
  const dataDir = source.MALL_DATA_DIR || './data';
  let release: () => void;
  try {
    release = lockDataDir(dataDir);
  } catch {
    return null;
  }
  const brandNew = !isInitialised(dataDir);
  const worker = startEmbeddedWorker({ dataDir: pgDataDir(dataDir) });
  return {
    dataDir,
    brandNew,
    worker,
    release,
    async abandon() {
      await worker.abandon();
      release();
    },
  };
}

export const isInitialised = (dataDir: string): boolean =>
  fs.existsSync(path.join(pgDataDir(dataDir), 'PG_VERSION'));
