// The server's side of one background job in a pooled child process (process-pool.ts): it sends the job,
// hears its progress, and settles with its result, or with a failure whatever way the job ends (an
// error, an exit, a crash, the server stopping it), never a hang. What the job does is its module's.
import { HttpError } from '../../errors';
import { freeNow } from '../free-now';
import type { ProcessPool } from './process-pool';

export interface ChildJob<Result> {
  result: Promise<Result>;
  /** The job's process id (tests, logs). */
  pid: number | undefined;
  /** Ends the job; `result` then fails (the server is closing). */
  stop(): Promise<void>;
}

export interface ChildJobOptions {
  /** The job's name in its failures: "The <noun> failed: …", "The <noun> stopped (…)". */
  noun: string;
  /**
   * Bytes for the job (an upload), written to the process's standard input as they are (serialising
   * 14 MB into an IPC message held the event loop ~45 ms), then freed here: unusable after.
   */
  input?: Uint8Array;
  /** Hears the job's progress counts. */
  progress?: (count: number) => void;
}

/** Runs `request` in a process of `pool`; a process whose job ended cleanly goes back to the pool. */
export function runInChild<Request, Result>(
  pool: ProcessPool<Request, Result>,
  request: Request,
  { noun, input, progress }: ChildJobOptions,
): ChildJob<Result> {
  const peer = pool.take();
  let settled = false;
  let finish: (error: Error | null, value?: Result, clean?: boolean) => void = () => undefined;
  const result = new Promise<Result>((resolve, reject) => {
    // `clean`: the job sent its outcome and waits for the next (its process goes back to the pool).
    finish = (error, value, clean = false) => {
      if (settled) return;
      settled = true;
      if (clean) peer.release();
      else void peer.end();
      if (error) reject(error);
      else resolve(value as Result);
    };
    peer.onMessage((message) => {
      if (message.type === 'progress') progress?.(message.count);
      // `last`: the process could not clean up after its job and is ending; it is not kept.
      else if (message.type === 'done') finish(null, message.result, !message.last);
      else if (message.type === 'failed') {
        const { statusCode, code, message: text } = message.error;
        finish(
          statusCode && code
            ? new HttpError(statusCode, code, text)
            : new Error(`The ${noun} failed: ${text}`),
          undefined,
          !message.last,
        );
      }
    });
    peer.onEnd((why) => finish(new Error(`The ${noun} stopped (${why})`)));
  });
  // Whoever awaits `result` hears of a failure; until then it is not an unhandled rejection.
  result.catch(() => undefined);
  peer.send({ type: 'request', request, ...(input ? { inputBytes: input.byteLength } : {}) });
  // Written: this copy is not needed any more.
  if (input) peer.writeInput(input, () => freeNow([input]));
  return {
    result,
    pid: peer.pid,
    async stop() {
      // A job that has ended has handed its process back: that process is another job's now.
      if (settled) return;
      finish(new Error(`The server stopped during the ${noun}`));
      await peer.end();
    },
  };
}

/** The jobs a server (an app) runs now, to stop them when it closes. */
export class ChildJobSet {
  private readonly running = new Set<ChildJob<unknown>>();

  /** Follows `job` until it settles. */
  watch(job: ChildJob<unknown>): void {
    this.running.add(job);
    const forget = () => this.running.delete(job);
    job.result.then(forget, forget);
  }

  get size(): number {
    return this.running.size;
  }

  /** Stops every job under way: their results fail, their processes end. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.running].map((job) => job.stop()));
  }
}
