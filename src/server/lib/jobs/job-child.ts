// The child process's side of background jobs (process-pool.ts forks it): at a lower priority than the
// server's, it runs one job after the other as the server sends them, reports progress, and sends each
// job's outcome; it ends when the server does. A job's own work is the handler its module passes to
// `serveJobs` (check-child.ts: an import's check).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { HttpError } from '../../errors';
import { JOB_NICE, type JobMessage, type JobRequestMessage } from './protocol';

/** What a job's handler is given besides its request. */
export interface JobContext {
  /** The bytes the server wrote to standard input for this job (`runInChild`'s `input`), if any. */
  input: Uint8Array | undefined;
  /** Reports progress (a count the server hears). */
  progress(count: number): void;
  /**
   * Registers a step to run once the job has ended, before its outcome is sent (closing its
   * connection…); when it resolves false (it did not finish in time), the process ends after sending
   * the outcome rather than run another job.
   */
  cleanUp(step: () => Promise<boolean>): void;
}

export type JobHandler<Request, Result> = (request: Request, job: JobContext) => Promise<Result>;

/**
 * A job is background work: its process yields a core to the server's threads.
 *
 * - Linux: a thread's nice value is its own (setpriority with a thread's id), so each of this process's
 *   threads is lowered: V8's garbage collection threads, started before this runs, one by one; threads
 *   started later (libuv's pool) take the value of the thread that starts them. Then, where util-linux's
 *   `chrt` is installed, the same threads move to SCHED_IDLE: a thread of the server that wakes takes
 *   the core at once (a nice-10 thread still ran out its turn of up to 4 ms: `perf sched` in decision
 *   022), and the job runs on what the server leaves (it still runs, slowly, when the cores stay busy).
 *   Being a process, it holds none of the server's locks while it waits for a core.
 * - Elsewhere: the process lowers its nice value (0 is the whole process there).
 */
function lowerPriority(): void {
  const lower = (id: number) => {
    try {
      os.setPriority(id, JOB_NICE);
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

/**
 * The server writes each job's input to standard input, one after the other; a job takes the number of
 * bytes its request announced (`readInput`). The pieces wait here until taken.
 */
const input: { pieces: Buffer[]; ended: boolean; wake: (() => void) | null } = {
  pieces: [],
  ended: false,
  wake: null,
};

/** The next `length` bytes of standard input, copied into one buffer as they arrive. */
async function readInput(length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
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
    bytes.set(piece.subarray(0, take), filled);
    filled += take;
    if (take === piece.byteLength) input.pieces.shift();
    else input.pieces[0] = piece.subarray(take);
  }
  return bytes;
}

/** Sends a message to the server; resolves once it is on its way. */
function send<Result>(message: JobMessage<Result>): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected) return resolve();
    // The message is serialised before `send` returns; the callback says it was written.
    process.send?.(message, undefined, undefined, () => resolve());
  });
}

/** The server's next job for this process. */
function nextRequest<Request>(): Promise<JobRequestMessage<Request>> {
  return new Promise((resolve) => {
    const first = (message: JobRequestMessage<Request>) => {
      if (message?.type !== 'request') return;
      process.off('message', first);
      resolve(message);
    };
    process.on('message', first);
  });
}

/** One job, from its request to its outcome (cleaned up after). */
async function runJob<Request, Result>(
  { request, inputBytes }: JobRequestMessage<Request>,
  handler: JobHandler<Request, Result>,
): Promise<JobMessage<Result>> {
  const cleanUps: (() => Promise<boolean>)[] = [];
  let outcome: JobMessage<Result>;
  try {
    // The input's bytes are taken off standard input first, whatever happens next: left there, they
    // would be read as the next job's.
    const bytes = inputBytes === undefined ? undefined : await readInput(inputBytes);
    const result = await handler(request, {
      input: bytes,
      progress: (count) => void send({ type: 'progress', count }),
      cleanUp: (step) => void cleanUps.push(step),
    });
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
  // Cleaned up before the outcome is sent: the server may end this process on it. A job whose clean-up
  // did not finish leaves something with this process (an open connection), which then ends rather
  // than run another job.
  let clean = true;
  for (const step of cleanUps.reverse()) if (!(await step().catch(() => false))) clean = false;
  return clean ? outcome : { ...outcome, last: true };
}

/**
 * Runs this process as a job process: lowers its priority, then runs each job the server sends with
 * `handler`, one after the other, forever. Its garbage is collected after each job, so that while it
 * waits it holds little more than its code. Never returns.
 */
export async function serveJobs<Request, Result>(handler: JobHandler<Request, Result>): Promise<never> {
  if (!process.send) throw new Error('A job process runs as a forked process');
  lowerPriority();
  // The server is gone (killed, or it closed the channel): so is this process, whether it was running a
  // job or waiting for its next one.
  process.on('disconnect', () => process.exit(1));
  process.stdin.on('data', (piece: Buffer) => {
    input.pieces.push(piece);
    input.wake?.();
  });
  process.stdin.on('end', () => {
    input.ended = true;
    input.wake?.();
  });
  for (;;) {
    const outcome = await runJob(await nextRequest<Request>(), handler);
    await send(outcome);
    if (outcome.type !== 'progress' && outcome.last) process.exit(0);
    (globalThis as { gc?: () => void }).gc?.();
  }
}
