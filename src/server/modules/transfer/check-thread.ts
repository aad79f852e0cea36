// The main thread's side of an import check on a worker thread (check-worker.ts, docs/decisions/022):
// it starts the worker and settles with the check's result — or with a failure, whatever way the worker
// ends (an error, an exit, a lost connection, the server closing), never a hang. On PostgreSQL the worker
// has its own connection and this side only hears progress and the result; embedded, this side answers
// the worker's queries on the server's pool and stages the batches it sends.
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import type { ImportKind } from '../../../shared/transfer';
import type { Db, WorkerConnection } from '../../db/client';
import { HttpError } from '../../errors';
import { freeNow } from '../../lib/free-now';
import type { CheckResult } from './import-check';
import { STAGE_ROWS_SQL, type StageBatch } from './staging';

/** The check's thread's nice value on Linux (the server's threads keep theirs): see check-worker.ts. */
export const CHECK_NICE = 10;

/** The worker's connection as PostgreSQL lists it (pg_stat_activity.application_name). */
export const CHECK_APPLICATION_NAME = 'super-mall import check';

export interface CheckRequest {
  runId: string;
  kind: ImportKind;
  /** A confirmed run: stage the rows to create or update (a preview stages nothing). */
  stage: boolean;
  /** The worker's own connection (PostgreSQL); without it, its queries go through the main thread. */
  connection?: WorkerConnection;
  /**
   * The upload's bytes, for the worker to store in the run's row before it checks them (with
   * `connection` only). Moved to the worker when they are a buffer of their own; unusable here after.
   */
  file?: Uint8Array;
}

/** Worker → main. */
export type CheckThreadMessage =
  | { type: 'progress'; rows: number }
  | {
      type: 'ask';
      id: number;
      body:
        | { type: 'query'; text: string; params: unknown[]; arrays: boolean }
        | { type: 'stage'; batch: StageBatch };
    }
  | { type: 'done'; result: CheckResult }
  | { type: 'failed'; error: { statusCode?: number; code?: string; message: string } };

/** Main → worker: the answer to an `ask`. */
export interface MainMessage {
  id: number;
  result?: unknown;
  error?: string;
}

const runningFromSource = import.meta.url.endsWith('.ts');

/**
 * The worker's heap: the old generation's limit is a guard (a runaway check fails its run, not the
 * server; 200,000 rows take far less: the check keeps one key per row and the refused rows, not the
 * rows); a small young generation keeps the many short-lived rows from growing the process's memory.
 */
const WORKER_HEAP_MB = 256;
const WORKER_YOUNG_MB = 8;

// drizzle's node-postgres driver reads dates, timestamps and intervals as the database's text; the
// proxy driver in the worker (embedded) maps the same text, so the answers are read the same way.
const RAW_TYPES = new Set([1082, 1083, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231]);
const types = {
  getTypeParser: (id: number, format?: string) =>
    RAW_TYPES.has(id)
      ? (value: string) => value
      : // biome-ignore lint/suspicious/noExplicitAny: pg's own default parsers
        (pg.types.getTypeParser as any)(id, format),
};

/** Writes a batch of staged rows the worker handed over (embedded): the worker's bytes as the parameter. */
async function stageRows(db: Db, runId: string, batch: StageBatch): Promise<void> {
  const json = Buffer.from(batch.json.buffer, batch.json.byteOffset, batch.json.byteLength);
  await db.$client.query(STAGE_ROWS_SQL, [runId, json]);
  // Received from the worker and written: freed now, not when external memory forces a mark-compact.
  freeNow([batch.json]);
}

export interface CheckThread {
  result: Promise<CheckResult>;
  /** Ends the worker; `result` then fails (the server is closing). */
  stop(): Promise<void>;
}

/**
 * Checks (and, for a confirmed run, stages) the run's stored file on a worker thread: over its own
 * connection when `request.connection` is given, else through `db`.
 */
export function checkOnThread(db: Db, request: CheckRequest, progress?: (rows: number) => void): CheckThread {
  const entry = runningFromSource ? './check-worker-source.mjs' : './import-check-worker.js';
  if (request.file && !request.connection)
    throw new Error('Only a worker with its own connection stores the file');
  // An upload's buffer is its own (read whole, or concatenated); a small one may share Node's pool.
  const moved = request.file && request.file.buffer.byteLength > Buffer.poolSize ? [request.file.buffer] : [];
  const worker = new Worker(new URL(entry, import.meta.url), {
    workerData: request,
    transferList: moved as ArrayBuffer[],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });
  let settled = false;
  let finish: (error: Error | null, value?: CheckResult) => void = () => undefined;
  const result = new Promise<CheckResult>((resolve, reject) => {
    finish = (error, value) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (error) reject(error);
      else resolve(value as CheckResult);
    };
    worker.on('message', (message: CheckThreadMessage) => {
      if (message.type === 'progress') progress?.(message.rows);
      else if (message.type === 'done') finish(null, message.result);
      else if (message.type === 'failed') {
        const { statusCode, code, message: text } = message.error;
        finish(
          statusCode && code ? new HttpError(statusCode, code, text) : new Error(`The check failed: ${text}`),
        );
      } else {
        const answer = (value: unknown) => {
          if (!settled) worker.postMessage({ id: message.id, result: value } satisfies MainMessage);
        };
        const refuse = (error: unknown) => {
          if (!settled)
            worker.postMessage({
              id: message.id,
              error: error instanceof Error ? error.message : String(error),
            } satisfies MainMessage);
        };
        const body = message.body;
        if (body.type === 'query') {
          const query: pg.QueryArrayConfig | pg.QueryConfig = body.arrays
            ? { text: body.text, values: body.params, rowMode: 'array', types }
            : { text: body.text, values: body.params, types };
          db.$client.query(query as pg.QueryConfig).then((answered) => answer(answered.rows), refuse);
        } else {
          stageRows(db, request.runId, body.batch).then(() => answer(null), refuse);
        }
      }
    });
    worker.on('error', (error) => finish(new Error(`The check stopped: ${error.message}`)));
    worker.on('exit', (code) => finish(new Error(`The check stopped (exit code ${code})`)));
  });
  // Whoever awaits `result` hears of a failure; until then it is not an unhandled rejection.
  result.catch(() => undefined);
  return {
    result,
    async stop() {
      finish(new Error('The server stopped during the check'));
      await worker.terminate();
    },
  };
}
