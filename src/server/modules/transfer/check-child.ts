// The check of an import file, in a process of its own (docs/decisions/022, fifth amendment): reading
// the CSV, validating each row with the form's schema, matching it, and making the staged rows' JSON all
// happen here, a background job (lib/jobs/job-child.ts) at a lower priority than the server's, so the
// server's event loop never waits on them. This process has a connection of its own (drizzle's
// node-postgres driver on one `pg` client): the upload's bytes, the file's chunks, the match queries
// and the staged batches never reach the server, which hears only progress and the result. The process
// checks one file after the other: the server keeps it between checks (check-process.ts).
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { WorkerConnection } from '../../db/client';
import * as schema from '../../db/schema';
import { freeNow } from '../../lib/free-now';
import { serveJobs } from '../../lib/jobs/job-child';
import type { Executor } from '../../write-path';
import { CHECK_APPLICATION_NAME, type SentRequest } from './check-process';
import { type CheckResult, checkFile } from './import-check';
import { STAGE_ROWS_SQL, type StageBatch, stageBatch } from './staging';

/** Characters of the file read per query. */
const CHUNK_CHARS = 512 * 1024;
/** How long closing the connection may take; after that the process ends (its socket closes then). */
const CLOSE_WAIT_MS = 2000;

const READ_PART = 'select substr(content, $2, $3) as part from import_runs where id = $1::uuid';

/** The check's connection to the database. */
interface Link {
  db: Executor;
  /** The rows of one query (objects by column name). */
  rows(text: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  stage(batch: StageBatch): Promise<void>;
  /** Stores the upload's bytes as the run's file. */
  storeFile(bytes: Uint8Array): Promise<void>;
  /** Closes its connection; false when that did not finish in time. */
  close(): Promise<boolean>;
}

/** A `pg` client of this process's own, with the pool's settings, once connected. */
async function ownConnection(runId: string, connection: WorkerConnection): Promise<Link> {
  const client = new pg.Client({
    connectionString: connection.connectionString,
    application_name: CHECK_APPLICATION_NAME,
  });
  // A connection lost while idle: the next query fails with pg's own error, which fails the run.
  client.on('error', () => undefined);
  await client.connect();
  return {
    db: drizzle(client, { schema }) as unknown as Executor,
    rows: async (text, params) => (await client.query(text, params)).rows,
    async stage(batch) {
      await client.query(STAGE_ROWS_SQL, [
        runId,
        Buffer.from(batch.json.buffer, batch.json.byteOffset, batch.json.byteLength),
      ]);
      // Written: freed now, not when external memory forces a mark-compact of this process's heap.
      freeNow([batch.json]);
    },
    async storeFile(bytes) {
      // A Buffer parameter goes in binary format: for text, the UTF-8 bytes themselves.
      await client.query('update import_runs set content = $2 where id = $1::uuid', [
        runId,
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      ]);
    },
    async close() {
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        client.end().then(
          () => true,
          () => true,
        ),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      return closed;
    },
  };
}

/** The run's file, a chunk per query (substr counts characters, so no character is split). */
async function* fileText(link: Link, runId: string): AsyncGenerator<string> {
  for (let from = 1; ; from += CHUNK_CHARS) {
    const [row] = await link.rows(READ_PART, [runId, from, CHUNK_CHARS]);
    const part = (row?.part as string | null | undefined) ?? '';
    if (part.length > 0) yield part;
    if (part.length < CHUNK_CHARS) return;
  }
}

// One check after the other, each closing its connection before its outcome is sent (the server may end
// this process on it); one that would not close in time stays with this process, which then ends.
await serveJobs<SentRequest, CheckResult>(async (request, job) => {
  const link = await ownConnection(request.runId, request.connection);
  job.cleanUp(() => link.close());
  if (job.input) {
    await link.storeFile(job.input);
    freeNow([job.input]);
  }
  let seq = 0;
  return checkFile(
    request.kind,
    link.db,
    fileText(link, request.runId),
    request.timeZone,
    (rows) => job.progress(rows),
    request.stage
      ? async (batch) => {
          const staged = stageBatch(request.kind, seq, batch);
          seq += batch.length;
          if (staged.rows > 0) await link.stage(staged);
        }
      : undefined,
  );
});
