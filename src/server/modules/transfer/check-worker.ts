// The check of an import file, on a worker thread of its own (docs/decisions/022): reading the CSV,
// validating each row with the form's schema, matching it, and making the staged rows' JSON all happen
// here, so the server's event loop never waits on them and their garbage is collected on this thread's
// heap. The database stays the main thread's: this thread asks it each query (drizzle's proxy driver)
// and hands it each batch to stage, waiting for the answer (backpressure: at most one batch in flight).
// The file itself is read from the run's row in chunks, so neither thread holds it whole for the check.
import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pg-proxy';
import { HttpError } from '../../errors';
import type { Executor } from '../../write-path';
import type { CheckRequest, CheckThreadMessage, MainMessage } from './check-thread';
import { checkFile } from './import-check';
import { stageBatch } from './staging';

/** Characters of the file read per query. */
const CHUNK_CHARS = 512 * 1024;

if (!parentPort) throw new Error('check-worker.ts runs as a worker thread');
const port = parentPort;
const request = workerData as CheckRequest;

const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextId = 0;
const send = (message: CheckThreadMessage) => port.postMessage(message);

/** Asks the main thread something and waits for its answer. */
function ask(
  message: Extract<CheckThreadMessage, { id: number }>['body'],
  transfer: ArrayBuffer[] = [],
): Promise<unknown> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    port.postMessage({ type: 'ask', id, body: message } satisfies CheckThreadMessage, transfer);
  });
}

port.on('message', (message: MainMessage) => {
  const entry = waiting.get(message.id);
  if (!entry) return;
  waiting.delete(message.id);
  if (message.error !== undefined) entry.reject(new Error(message.error));
  else entry.resolve(message.result);
});

const db = drizzle(async (text, params, method) => {
  const rows = (await ask({ type: 'query', text, params, arrays: method === 'all' })) as unknown[];
  return { rows };
});

/** The run's file, a chunk per query (substr counts characters, so no character is split). */
async function* fileText(): AsyncGenerator<string> {
  for (let from = 1; ; from += CHUNK_CHARS) {
    const result = (await db.execute(
      sql`select substr(content, ${from}, ${CHUNK_CHARS}) as part from import_runs where id = ${request.runId}::uuid`,
    )) as unknown as { part: string | null }[];
    const part = result[0]?.part ?? '';
    if (part.length > 0) yield part;
    if (part.length < CHUNK_CHARS) return;
  }
}

async function main() {
  let seq = 0;
  try {
    const result = await checkFile(
      request.kind,
      db as unknown as Executor,
      fileText(),
      (rows) => send({ type: 'progress', rows }),
      request.stage
        ? async (batch) => {
            const staged = stageBatch(request.kind, seq, batch);
            seq += batch.length;
            if (staged.rows > 0)
              await ask({ type: 'stage', batch: staged }, [staged.json.buffer as ArrayBuffer]);
          }
        : undefined,
    );
    send({ type: 'done', result });
  } catch (error) {
    send({
      type: 'failed',
      error:
        error instanceof HttpError
          ? { statusCode: error.statusCode, code: error.code, message: error.message }
          : { message: error instanceof Error ? error.message : String(error) },
    });
  }
}

await main();
