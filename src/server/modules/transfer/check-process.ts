// The server's side of an import check (check-child.ts, docs/decisions/022, fifth amendment): it hands
// the check to a child process (kept between checks) and settles with its result, or with a failure
// whatever way the check ends (an error, an exit, a lost connection, the server closing), never a hang.
// The check has its own connection and this side only hears progress and the result; embedded, that
// connection shares PGlite's one session with the pool, and this side gives it each turn to query.
// Without a connection (tests), this side answers the check's queries and stages its batches.
import { type ChildProcess, fork } from 'node:child_process';
import pg from 'pg';
import type { ImportKind } from '../../../shared/transfer';
import { type Db, lendSession, resync, type WorkerConnection } from '../../db/client';
import { HttpError } from '../../errors';
import { freeNow } from '../../lib/free-now';
import type { CheckResult } from './import-check';
import { STAGE_ROWS_SQL, type StageBatch } from './staging';

/** The nice value of the check's threads where SCHED_IDLE cannot be had: see check-child.ts. */
export const CHECK_NICE = 10;

/** The worker's connection as PostgreSQL lists it (pg_stat_activity.application_name). */
export const CHECK_APPLICATION_NAME = 'super-mall import check';

export interface CheckRequest {
  runId: string;
  kind: ImportKind;
  /** A confirmed run: stage the rows to create or update (a preview stages nothing). */
  stage: boolean;
  /** The child's own connection (PostgreSQL); without it, its queries go through the server. */
  connection?: WorkerConnection;
  /**
   * The upload's bytes, for the check to store in the run's row before it checks them (with
   * `connection` only). Written to the child's standard input as they are (serialising 14 MB into an
   * IPC message held the event loop ~45 ms), then freed here: unusable after.
   */
  file?: Uint8Array;
}

/** The request as the child receives it: the file's length in place of the file (its bytes on stdin). */
export type SentRequest = Omit<CheckRequest, 'file'> & { fileBytes?: number };

/** Check → server. */
export type CheckChildMessage =
  | { type: 'progress'; rows: number }
  | {
      type: 'ask';
      id: number;
      body:
        | { type: 'query'; text: string; params: unknown[]; arrays: boolean }
        | { type: 'stage'; batch: StageBatch }
        // A shared session's turn (embedded): answered once the server holds the pool's client.
        | { type: 'turn' };
    }
  /** The turn's query has its answer: the pool's client is let go. */
  | { type: 'endTurn' }
  | { type: 'done'; result: CheckResult; last?: boolean }
  | { type: 'failed'; error: { statusCode?: number; code?: string; message: string }; last?: boolean };

/** Server → check: the request (first), then the answers to its `ask`s. */
export type ParentMessage = { type: 'request'; request: SentRequest } | AnswerMessage;

/** The answer to an `ask`. */
export interface AnswerMessage {
  type: 'answer';
  id: number;
  result?: unknown;
  error?: string;
}

const runningFromSource = import.meta.url.endsWith('.ts');

/**
 * The check's heap: the old generation's limit is a guard (a runaway check fails its run, not the
 * server; 200,000 rows take far less: the check keeps one key per row and the refused rows, not the
 * rows); a small young generation keeps the many short-lived rows from growing its memory.
 */
const CHECK_HEAP_MB = 256;
const CHECK_SEMI_SPACE_MB = 1;

// drizzle's node-postgres driver reads dates, timestamps and intervals as the database's text; the
// proxy driver in the child (embedded) maps the same text, so the answers are read the same way.
const RAW_TYPES = new Set([1082, 1083, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231]);
const types = {
  getTypeParser: (id: number, format?: string) =>
    RAW_TYPES.has(id)
      ? (value: string) => value
      : // biome-ignore lint/suspicious/noExplicitAny: pg's own default parsers
        (pg.types.getTypeParser as any)(id, format),
};

/**
 * The longest turn a check may hold the server's database for (embedded). Its longest query, storing a
 * 40 MB upload, takes a few seconds; a process stuck in its turn would stop every other query.
 */
const TURN_LIMIT_MS = 30_000;

/** Writes a batch of staged rows the check sent (embedded): its bytes as the parameter. */
async function stageRows(db: Db, runId: string, batch: StageBatch): Promise<void> {
  const json = Buffer.from(batch.json.buffer, batch.json.byteOffset, batch.json.byteLength);
  await db.$client.query(STAGE_ROWS_SQL, [runId, json]);
  // Not freed here: the batch arrives as a view into its IPC message's buffer (serialization
  // 'advanced'), which freeNow cannot detach; the collector frees it (decision 022, fifth amendment).
}

/** The check's other end: a check process, for the time of one check. */
interface Peer {
  send(message: ParentMessage): void;
  /** Writes the file's bytes to the process's standard input; `written` once the pipe has them all. */
  sendFile(bytes: Uint8Array, written: () => void): void;
  onMessage(listener: (message: CheckChildMessage) => void): void;
  onEnd(listener: (why: string) => void): void;
  /** Ends the process; resolves when it has ended. */
  end(): Promise<void>;
  /** Its check has ended cleanly (it sent its outcome): keep the process for the next check, or end it. */
  release(): void;
  pid: number | undefined;
}

const entry = () =>
  new URL(runningFromSource ? './check-child-source.mjs' : './import-check.js', import.meta.url);

/** A check process, waiting in the pool or checking. */
interface CheckProcess {
  child: ChildProcess;
  exited: Promise<void>;
  alive: boolean;
}

/**
 * Check processes waiting for a check: one is started with the server (`warmCheckProcess`), and a
 * process goes back here when its check ends, so an import forks nothing: `fork` copies the server's
 * page tables and waits for the child's `exec`, 12 ms on an idle machine and up to 22 ms of the event
 * loop asleep under the import bench's load. At most `KEEP_WAITING` wait; a process that was stopped,
 * crashed or exited is never reused.
 */
const waiting: CheckProcess[] = [];
const KEEP_WAITING = 2;

/** A waiting process neither keeps the server's event loop alive (tests, the CLI) nor is kept by it. */
function hold({ child }: CheckProcess, held: boolean): void {
  const handles = [child, child.channel, child.stdin] as (
    | { ref?(): void; unref?(): void }
    | null
    | undefined
  )[];
  for (const handle of handles) held ? handle?.ref?.() : handle?.unref?.();
}

/**
 * A process of its own, not a worker thread of the server's: V8's garbage collector helps every isolate
 * of a process from one pool of threads at the process's priority (a worker's collections took turns of
 * up to 4 ms with the event loop on 2 cores: `perf sched`), and a thread at SCHED_IDLE shares the
 * server's locks (the allocator's arenas, message ports): preempted while holding one, it left the event
 * loop asleep for 20-41 ms in the embedded bench. A process shares neither, and all of its threads,
 * collector included, run at SCHED_IDLE (check-child.ts).
 */
function forkCheckProcess(): CheckProcess {
  const child = fork(entry(), [], {
    serialization: 'advanced',
    execArgv: [
      `--max-old-space-size=${CHECK_HEAP_MB}`,
      `--max-semi-space-size=${CHECK_SEMI_SPACE_MB}`,
      // The process collects its garbage after each check, so that while it waits it holds little.
      '--expose-gc',
    ],
    stdio: ['pipe', 'inherit', 'inherit', 'ipc'],
  });
  // The child gone before it read all of a file: its end of the pipe closed (EPIPE), which its exit
  // reports.
  child.stdin?.on('error', () => undefined);
  const started: CheckProcess = {
    child,
    alive: true,
    // A process that could not be started (no pid) emits 'error' and never 'exit'.
    exited: new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => {
        if (child.pid === undefined) resolve();
      });
    }),
  };
  const gone = () => {
    started.alive = false;
    const at = waiting.indexOf(started);
    if (at >= 0) waiting.splice(at, 1);
  };
  child.once('exit', gone);
  // Every 'error' is heard (a second one without a listener would throw in the server).
  child.on('error', gone);
  return started;
}

/** Starts a check process to wait for the first import (the server's start-up). */
export function warmCheckProcess(): void {
  if (waiting.length > 0) return;
  const started = forkCheckProcess();
  hold(started, false);
  waiting.push(started);
}

/** Ends the waiting check processes (tests). Checks under way are stopped by their runs. */
export async function endWaitingCheckProcesses(): Promise<void> {
  const ending = waiting.splice(0);
  for (const { child } of ending) child.kill();
  await Promise.all(ending.map((each) => each.exited));
}

/** A waiting check process, or a new one; released or ended when its check ends. */
function takeProcess(): Peer {
  let taken = waiting.pop();
  while (taken && !taken.alive) taken = waiting.pop();
  const checking = taken ?? forkCheckProcess();
  hold(checking, true);
  const { child, exited } = checking;
  // biome-ignore lint/suspicious/noExplicitAny: EventEmitter's own listener type
  type Listener = (...args: any[]) => void;
  const listeners: [string, Listener][] = [];
  const listen = (event: string, listener: Listener) => {
    listeners.push([event, listener]);
    child.on(event, listener);
  };
  const end = async () => {
    // SIGKILL: a process ended mid-check is never reused, and one that is stuck (or stopped) would not
    // heed SIGTERM, leaving whatever waits for its end (the server's held client) waiting too.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return {
    send(message) {
      if (child.connected) child.send(message, undefined, undefined, () => undefined);
    },
    sendFile(bytes, written) {
      // libuv writes the bytes from this buffer as the pipe takes them: no copy, no serialising.
      child.stdin?.write(bytes, () => written());
    },
    onMessage: (listener) => listen('message', listener),
    onEnd(listener) {
      listen('error', (error: Error) => listener(error.message));
      listen('exit', (code: number | null, signal: string | null) =>
        listener(signal ? `signal ${signal}` : `exit code ${code}`),
      );
    },
    end,
    release() {
      for (const [event, listener] of listeners) child.off(event, listener);
      if (checking.alive && child.connected && waiting.length < KEEP_WAITING) {
        hold(checking, false);
        waiting.push(checking);
      } else void end();
    },
    pid: child.pid,
  };
}

export interface CheckChild {
  result: Promise<CheckResult>;
  /** The check's process id (tests, logs). */
  pid: number | undefined;
  /** Ends the check; `result` then fails (the server is closing). */
  stop(): Promise<void>;
}

/**
 * Checks (and, for a confirmed run, stages) the run's stored file in a check process: over its own
 * connection when `request.connection` is given (PostgreSQL), else through `db` (embedded).
 */
export function checkInChild(
  db: Db,
  request: CheckRequest,
  progress?: (rows: number) => void,
  /** The longest turn (tests shorten it). */
  turnLimitMs = TURN_LIMIT_MS,
): CheckChild {
  if (request.file && !request.connection)
    throw new Error('Only a check with its own connection stores the file');
  const peer = takeProcess();
  let settled = false;
  /** The pool's client, held for the check's query (a shared session's turn). */
  let held: pg.PoolClient | undefined;
  /** Ends a turn that has lasted too long (a stuck process holding the server's database). */
  let turnTimer: NodeJS.Timeout | undefined;
  const endTurn = () => {
    clearTimeout(turnTimer);
    held?.release();
    held = undefined;
  };
  let finish: (error: Error | null, value?: CheckResult, clean?: boolean) => void = () => undefined;
  const result = new Promise<CheckResult>((resolve, reject) => {
    // `clean`: the check sent its outcome and waits for the next (its process goes back to the pool).
    finish = (error, value, clean = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(turnTimer);
      if (clean) {
        // Its last turn ended before its outcome was sent (one channel, in order): none is held.
        endTurn();
        peer.release();
      } else {
        const ended = peer.end();
        // A check that ended during its turn (a crash, a stop): once its process is gone, a Sync ends
        // whatever it left half-done in PGlite's session, and the pool's client is given back.
        const client = held;
        held = undefined;
        if (client) void ended.then(() => resync(client)).finally(() => client.release());
      }
      if (error) reject(error);
      else resolve(value as CheckResult);
    };
    peer.onMessage((message) => {
      if (message.type === 'progress') progress?.(message.rows);
      else if (message.type === 'endTurn') endTurn();
      // `last`: the process could not close its connection and is ending; it is not kept.
      else if (message.type === 'done') finish(null, message.result, !message.last);
      else if (message.type === 'failed') {
        const { statusCode, code, message: text } = message.error;
        finish(
          statusCode && code ? new HttpError(statusCode, code, text) : new Error(`The check failed: ${text}`),
          undefined,
          !message.last,
        );
      } else {
        const answer = (value: unknown) => {
          if (!settled) peer.send({ type: 'answer', id: message.id, result: value });
        };
        const refuse = (error: unknown) => {
          if (!settled)
            peer.send({
              type: 'answer',
              id: message.id,
              error: error instanceof Error ? error.message : String(error),
            });
        };
        const body = message.body;
        if (body.type === 'query') {
          const query: pg.QueryArrayConfig | pg.QueryConfig = body.arrays
            ? { text: body.text, values: body.params, rowMode: 'array', types }
            : { text: body.text, values: body.params, types };
          db.$client.query(query as pg.QueryConfig).then((answered) => answer(answered.rows), refuse);
        } else if (body.type === 'turn') {
          // The pool has one client embedded: holding it keeps every other query of the server off
          // PGlite's session until the check's query has its answer (decision 022, seventh amendment).
          db.$client.connect().then((client) => {
            if (settled) client.release();
            else if (held) {
              client.release();
              refuse(new Error('The check asked for a turn during its turn'));
            } else {
              held = client;
              // Lent: the check's connection could commit on the session unseen by the session cache.
              lendSession(db.$client);
              turnTimer = setTimeout(
                () => finish(new Error('The check held the database too long; it was stopped')),
                turnLimitMs,
              );
              answer(null);
            }
          }, refuse);
        } else {
          stageRows(db, request.runId, body.batch).then(() => answer(null), refuse);
        }
      }
    });
    peer.onEnd((why) => finish(new Error(`The check stopped (${why})`)));
  });
  // Whoever awaits `result` hears of a failure; until then it is not an unhandled rejection.
  result.catch(() => undefined);
  const { file, ...sent } = request;
  peer.send({ type: 'request', request: file ? { ...sent, fileBytes: file.byteLength } : sent });
  // Written: this copy is not needed any more.
  if (file) peer.sendFile(file, () => freeNow([file]));
  return {
    result,
    pid: peer.pid,
    async stop() {
      // A check that has ended has handed its process back: that process is another check's now.
      if (settled) return;
      finish(new Error('The server stopped during the check'));
      await peer.end();
    },
  };
}
