// The check of an import file, in a process of its own (docs/decisions/022, fifth amendment): reading
// the CSV, validating each row with the form's schema, matching it, and making the staged rows' JSON all
// happen here, at a lower priority than the server's, so the server's event loop never waits on them.
// This process has a connection of its own (drizzle's node-postgres driver on one `pg` client): the
// file's chunks, the match queries and the staged batches never reach the server, which hears only
// progress and the result. Embedded, that connection reaches PGlite's one session over its socket, and
// each use of it waits for a turn the server gives (`turnTaker`): PGlite's socket server cannot take a
// second busy connection (decision 022). Without a connection (tests), the server runs its queries
// (drizzle's proxy driver) and writes each batch it sends. The file is read from the run's row in chunks
// either way. The process checks one file after the other: the server keeps it between checks
// (check-process.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzleProxy } from 'drizzle-orm/pg-proxy';
import pg from 'pg';
import type { WorkerConnection } from '../../db/client';
import * as schema from '../../db/schema';
import { HttpError } from '../../errors';
import { freeNow } from '../../lib/free-now';
import type { Executor } from '../../write-path';
import {
  type AnswerMessage,
  CHECK_APPLICATION_NAME,
  CHECK_NICE,
  type CheckChildMessage,
  type ParentMessage,
  type SentRequest,
} from './check-process';
import { checkFile } from './import-check';
import { STAGE_ROWS_SQL, type StageBatch, stageBatch } from './staging';

/** Characters of the file read per query. */
const CHUNK_CHARS = 512 * 1024;
/** How long closing the connection may take; after that the process ends (its socket closes then). */
const CLOSE_WAIT_MS = 2000;

if (!process.send) throw new Error('check-child.ts runs as a forked process');

/**
 * The check is background work: it yields a core to the server's threads.
 *
 * - Linux: a thread's nice value is its own (setpriority with a thread's id), so each of this process's
 *   threads is lowered: V8's garbage collection threads, started before this line, one by one; threads
 *   started later (libuv's pool) take the value of the thread that starts them. Then, where util-linux's
 *   `chrt` is installed, the same threads move to SCHED_IDLE: a thread of the server that wakes takes
 *   the core at once (a nice-10 thread still ran out its turn of up to 4 ms: `perf sched` in decision
 *   022), and the check runs on what the server leaves (it still runs, slowly, when the cores stay busy).
 *   Being a process, it holds none of the server's locks while it waits for a core.
 * - Elsewhere: the process lowers its nice value (0 is the whole process there).
 */
function lowerPriority(): void {
  const lower = (id: number) => {
    try {
      os.setPriority(id, CHECK_NICE);
    } catch {
      // Not allowed here: that thread keeps the server's priority.
    }
  };
  if (process.platform !== 'linux') {
    lower(0);
    return;
  }
  for (const tid of readdirSync('/proc/self/task')) lower(Number(tid));
  // Unprivileged processes may always move to SCHED_IDLE. Without chrt, the nice value stays. (chrt
  // 2.38 reads --all-tasks only before --pid: after it, the main thread alone moved.)
  spawnSync('chrt', ['--all-tasks', '--idle', '--pid', '0', String(process.pid)], {
    stdio: 'ignore',
    timeout: 5000,
  });
}
lowerPriority();

// The server is gone (killed, or it closed the channel): so is this process, whether it was checking or
// waiting for its next check.
process.on('disconnect', () => process.exit(1));

/** Sends a message to the server; resolves once it is on its way. */
const send = (message: CheckChildMessage): Promise<void> =>
  new Promise((resolve) => {
    if (!process.connected) return resolve();
    // The message is serialised before `send` returns; the callback says it was written.
    process.send?.(message, undefined, undefined, () => resolve());
  });

const onMessage = (listener: (message: ParentMessage) => void) => process.on('message', listener);
const offMessage = (listener: (message: ParentMessage) => void) => process.off('message', listener);

/** The server's next check for this process. */
const nextRequest = () =>
  new Promise<SentRequest>((resolve) => {
    const first = (message: ParentMessage) => {
      if (message.type !== 'request') return;
      offMessage(first);
      resolve(message.request);
    };
    onMessage(first);
  });

const READ_PART = 'select substr(content, $2, $3) as part from import_runs where id = $1::uuid';

/** How this process reaches the database. */
interface Link {
  db: Executor;
  /** The rows of one query (objects by column name). */
  rows(text: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  stage(batch: StageBatch): Promise<void>;
  /** Stores the upload's bytes as the run's file (own connection only). */
  storeFile(bytes: Uint8Array): Promise<void>;
  /** Closes its connection; false when that did not finish in time. */
  close(): Promise<boolean>;
}

type Ask = (body: Extract<CheckChildMessage, { type: 'ask' }>['body']) => Promise<unknown>;

/** Asks the server and waits for its answer; `close` stops listening for answers. */
function askServer(): { ask: Ask; close(): void } {
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 0;
  const answered = (message: ParentMessage) => {
    if (message.type !== 'answer') return;
    const entry = waiting.get((message as AnswerMessage).id);
    if (!entry) return;
    waiting.delete(message.id);
    if (message.error !== undefined) entry.reject(new Error(message.error));
    else entry.resolve(message.result);
  };
  onMessage(answered);
  return {
    ask(body) {
      const id = nextId++;
      const answer = new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
      void send({ type: 'ask', id, body });
      return answer;
    },
    close: () => offMessage(answered),
  };
}

/**
 * Work on a connection that shares PGlite's one session with the server's pool (embedded), each piece in
 * a turn: the server holds its pool's client until the piece is done (`endTurn`), so none of the pool's
 * messages lands between this connection's (decision 022, seventh amendment). One turn at a time.
 */
function turnTaker(ask: Ask): <T>(work: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const turn = last.then(async () => {
      await ask({ type: 'turn' });
      try {
        return await work();
      } finally {
        void send({ type: 'endTurn' });
      }
    });
    last = turn.catch(() => undefined);
    return turn;
  };
}

/**
 * A `pg` client of this process's own, with the pool's settings: PostgreSQL's own session, or
 * (embedded, `sharedSession`) PGlite's one session, reached over its socket with every use in a turn.
 */
async function ownConnection(request: SentRequest, connection: WorkerConnection): Promise<Link> {
  const shared = connection.sharedSession === true;
  const client = new pg.Client({
    connectionString: connection.connectionString,
    // PGlite's one session is the server's too: its name stays the server's.
    ...(shared ? {} : { application_name: CHECK_APPLICATION_NAME }),
  });
  const asks = shared ? askServer() : null;
  const inTurn = asks ? turnTaker(asks.ask) : <T>(work: () => Promise<T>) => work();
  if (shared) {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as { query: typeof query }).query = (...args) => inTurn(() => query(...args));
  }
  // A connection lost while idle: the next query fails with pg's own error, which fails the run.
  client.on('error', () => undefined);
  await inTurn(() => client.connect());
  return {
    db: drizzleNodePg(client, { schema }) as unknown as Executor,
    rows: async (text, params) => (await client.query(text, params)).rows,
    async stage(batch) {
      await client.query(STAGE_ROWS_SQL, [
        request.runId,
        Buffer.from(batch.json.buffer, batch.json.byteOffset, batch.json.byteLength),
      ]);
      // Written: freed now, not when external memory forces a mark-compact of this process's heap.
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
      const closed = await Promise.race([
        inTurn(() => client.end()).then(
          () => true,
          () => true,
        ),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      asks?.close();
      return closed;
    },
  };
}

/** No connection of its own (tests): every query and batch asked of the server, which answers on its pool. */
function throughServer(): Link {
  const { ask, close } = askServer();
  return {
    db: drizzleProxy(async (text, params, method) => {
      const rows = (await ask({ type: 'query', text, params, arrays: method === 'all' })) as unknown[];
      return { rows };
    }) as unknown as Executor,
    rows: async (text, params) =>
      (await ask({ type: 'query', text, params, arrays: false })) as Record<string, unknown>[],
    stage: async (batch) => {
      await ask({ type: 'stage', batch });
    },
    storeFile: async () => {
      throw new Error('The file is stored by the server when the check has no connection');
    },
    close: async () => {
      close();
      return true;
    },
  };
}

/**
 * The server writes each check's upload to this process's standard input, one after the other; a check
 * takes the number of bytes its request announced (`readStdin`). The pieces wait here until taken.
 */
const input: { pieces: Buffer[]; ended: boolean; wake: (() => void) | null } = {
  pieces: [],
  ended: false,
  wake: null,
};
process.stdin.on('data', (piece: Buffer) => {
  input.pieces.push(piece);
  input.wake?.();
});
process.stdin.on('end', () => {
  input.ended = true;
  input.wake?.();
});

/** The next `length` bytes of standard input, copied into one buffer as they arrive. */
async function readStdin(length: number): Promise<Uint8Array> {
  const file = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const piece = input.pieces[0];
    if (!piece) {
      if (input.ended) throw new Error(`The upload ended after ${filled} of ${length} bytes`);
      await new Promise<void>((resolve) => {
        input.wake = resolve;
      });
      input.wake = null;
      continue;
    }
    const take = Math.min(piece.byteLength, length - filled);
    file.set(piece.subarray(0, take), filled);
    filled += take;
    if (take === piece.byteLength) input.pieces.shift();
    else input.pieces[0] = piece.subarray(take);
  }
  return file;
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

/** One check, from its request to its outcome (its connection closed). */
async function check(request: SentRequest): Promise<CheckChildMessage> {
  let link: Link | null = null;
  let outcome: CheckChildMessage;
  try {
    // The upload's bytes are taken off standard input first, whatever happens next: left there, they
    // would be read as the next check's file.
    const file = request.fileBytes === undefined ? undefined : await readStdin(request.fileBytes);
    link = request.connection ? await ownConnection(request, request.connection) : throughServer();
    const through = link;
    if (file) {
      await through.storeFile(file);
      freeNow([file]);
    }
    let seq = 0;
    const result = await checkFile(
      request.kind,
      through.db,
      fileText(through, request.runId),
      (rows) => void send({ type: 'progress', rows }),
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
  // The connection is closed before the result is sent: the server may end this process on it. One that
  // would not close in time stays with this process, which then ends rather than check another file.
  const closed = (await link?.close()) ?? true;
  return closed ? outcome : { ...outcome, last: true };
}

// One file after the other: the server keeps this process for its next check (forking one during an
// import held its event loop, check-process.ts). Its garbage is collected after each, so that while it
// waits it holds little more than its code.
for (;;) {
  const outcome = await check(await nextRequest());
  await send(outcome);
  if ('last' in outcome && outcome.last) process.exit(0);
  (globalThis as { gc?: () => void }).gc?.();
}
