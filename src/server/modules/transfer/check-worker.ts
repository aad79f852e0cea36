// The check of an import file, on a worker thread of its own (docs/decisions/022): reading the CSV,
// validating each row with the form's schema, matching it, and making the staged rows' JSON all happen
// here, so the server's event loop never waits on them and their garbage is collected on this thread's
// heap. On PostgreSQL this thread has a connection of its own (drizzle's node-postgres driver on one
// `pg` client): the file's chunks, the match queries and the staged batches never cross the main thread,
// which hears only progress and the result. Embedded, the main thread runs the queries for it (drizzle's
// proxy driver) and writes each batch it hands over, one at a time: PGlite's socket server cannot take a
// second busy connection (decision 022). The file is read from the run's row in chunks either way.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzleProxy } from 'drizzle-orm/pg-proxy';
import pg from 'pg';
import type { WorkerConnection } from '../../db/client';
import * as schema from '../../db/schema';
import { HttpError } from '../../errors';
import { freeNow } from '../../lib/free-now';
import type { Executor } from '../../write-path';
import {
  CHECK_APPLICATION_NAME,
  CHECK_NICE,
  type CheckRequest,
  type CheckThreadMessage,
  type MainMessage,
} from './check-thread';
import { checkFile } from './import-check';
import { STAGE_ROWS_SQL, type StageBatch, stageBatch } from './staging';

/** Characters of the file read per query. */
const CHUNK_CHARS = 512 * 1024;
/** How long closing the connection may take before the thread ends anyway (its socket closes then). */
const CLOSE_WAIT_MS = 2000;

if (!parentPort) throw new Error('check-worker.ts runs as a worker thread');

// The check is background work: on Linux a thread has its own nice value (setpriority with 0 is the
// calling thread), so this thread yields a busy core to the server's event loop and PGlite's thread
// instead of sharing it evenly. Elsewhere 0 would be the whole process: left as it is there.
if (process.platform === 'linux') {
  try {
    os.setPriority(0, CHECK_NICE);
  } catch {
    // Not allowed here: the check runs at the server's priority.
  }
}

const port = parentPort;
const request = workerData as CheckRequest;
const send = (message: CheckThreadMessage) => port.postMessage(message);

const READ_PART = 'select substr(content, $2, $3) as part from import_runs where id = $1::uuid';

/** How this thread reaches the database. */
interface Link {
  db: Executor;
  /** The rows of one query (objects by column name). */
  rows(text: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  stage(batch: StageBatch): Promise<void>;
  /** Stores the upload's bytes as the run's file (own connection only). */
  storeFile(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** PostgreSQL: a `pg` client of this thread's own, with the pool's settings. */
async function ownConnection(connection: WorkerConnection): Promise<Link> {
  const client = new pg.Client({
    connectionString: connection.connectionString,
    application_name: CHECK_APPLICATION_NAME,
  });
  // A connection lost while idle: the next query fails with pg's own error, which fails the run.
  client.on('error', () => undefined);
  await client.connect();
  return {
    db: drizzleNodePg(client, { schema }) as unknown as Executor,
    rows: async (text, params) => (await client.query(text, params)).rows,
    async stage(batch) {
      await client.query(STAGE_ROWS_SQL, [
        request.runId,
        Buffer.from(batch.json.buffer, batch.json.byteOffset, batch.json.byteLength),
      ]);
      // Written: freed now, not when external memory forces a mark-compact of this thread's heap.
      freeNow([batch.json]);
    },
    async storeFile(bytes) {
      // A Buffer parameter goes in binary format: for text, the UTF-8 bytes themselves.
      await client.query('update import_runs set content = $2 where id = $1::uuid', [
        request.runId,
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      ]);
    },
    async close() {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        client.end().catch(() => undefined),
        new Promise((resolve) => {
          timer = setTimeout(resolve, CLOSE_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}

/** Embedded: every query and batch asked of the main thread, which answers on the app's pool. */
function throughMain(): Link {
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 0;
  const ask = (
    body: Extract<CheckThreadMessage, { id: number }>['body'],
    transfer: ArrayBuffer[] = [],
  ): Promise<unknown> => {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      port.postMessage({ type: 'ask', id, body } satisfies CheckThreadMessage, transfer);
    });
  };
  port.on('message', (message: MainMessage) => {
    const entry = waiting.get(message.id);
    if (!entry) return;
    waiting.delete(message.id);
    if (message.error !== undefined) entry.reject(new Error(message.error));
    else entry.resolve(message.result);
  });
  return {
    db: drizzleProxy(async (text, params, method) => {
      const rows = (await ask({ type: 'query', text, params, arrays: method === 'all' })) as unknown[];
      return { rows };
    }) as unknown as Executor,
    rows: async (text, params) =>
      (await ask({ type: 'query', text, params, arrays: false })) as Record<string, unknown>[],
    stage: async (batch) => {
      await ask({ type: 'stage', batch }, [batch.json.buffer as ArrayBuffer]);
    },
    storeFile: async () => {
      throw new Error('The file is stored by the main thread when the check has no connection');
    },
    close: async () => undefined,
  };
}

/** The run's file, a chunk per query (substr counts characters, so no character is split). */
async function* fileText(link: Link): AsyncGenerator<string> {
  for (let from = 1; ; from += CHUNK_CHARS) {
    const [row] = await link.rows(READ_PART, [request.runId, from, CHUNK_CHARS]);
    const part = (row?.part as string | null | undefined) ?? '';
    if (part.length > 0) yield part;
    if (part.length < CHUNK_CHARS) return;
  }
}

async function main() {
  let link: Link | null = null;
  let outcome: CheckThreadMessage;
  try {
    link = request.connection ? await ownConnection(request.connection) : throughMain();
    const through = link;
    if (request.file) {
      await through.storeFile(request.file);
      freeNow([request.file]);
      request.file = undefined;
    }
    let seq = 0;
    const result = await checkFile(
      request.kind,
      through.db,
      fileText(through),
      (rows) => send({ type: 'progress', rows }),
      request.stage
        ? async (batch) => {
            const staged = stageBatch(request.kind, seq, batch);
            seq += batch.length;
            if (staged.rows > 0) await through.stage(staged);
          }
        : undefined,
    );
    outcome = { type: 'done', result };
  } catch (error) {
    outcome = {
      type: 'failed',
      error:
        error instanceof HttpError
          ? { statusCode: error.statusCode, code: error.code, message: error.message }
          : { message: error instanceof Error ? error.message : String(error) },
    };
  }
  // The connection is closed before the result is sent: the main thread ends this thread on it.
  await link?.close();
  send(outcome);
}

await main();
