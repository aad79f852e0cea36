import { Worker } from 'node:worker_threads';
import { HttpError } from '../../errors';
import { freeNow, ownsItsMemory } from '../../lib/free-now';
import { OVERLOADED_MESSAGE } from '../../overload';
import type { FromImageWorker, ToImageWorker } from './image-worker';
import type { ProcessedImage } from './pipeline';

/**
 * The image workers (docs/decisions/020): a few threads that decode uploads, so the upload's bytes and
 * the decoding's buffers never enter the HTTP server's V8 heap — their garbage collections were what
 * stalled its event loop for 37–41 ms during a 12-MP upload. Started on the first upload (an app that
 * never receives one starts none), one upload at a time each; a worker that crashes or hangs is replaced
 * by a new one at the next upload. `close()` (the app's onClose) stops them all.
 */
export interface ImageWorkers {
  /** A worker for one upload: push its pieces as they arrive, then `finish` (or `abort`). */
  begin(): Promise<UploadJob>;
  /** Threads running now (tests: none left after close). */
  readonly threads: number;
  close(): Promise<void>;
}

export interface UploadJob {
  /**
   * A piece of the file, handed to the worker: moved when it is the whole of its ArrayBuffer (which is
   * then detached: the caller must not read it again), copied otherwise.
   */
  push(bytes: Uint8Array): void;
  /** The file is whole: the processed image, or the same refusals as processImage (422…), or 500. */
  finish(): Promise<ProcessedImage>;
  /** The upload failed before its end: the worker forgets it and is free again. */
  abort(): void;
}

export interface ImageWorkerOptions {
  /** How long a worker may take over a whole file before it is stopped (and the upload answered 500). */
  timeoutMs?: number;
  /** The worker's script (tests: a stand-in that crashes or hangs). */
  entry?: URL;
}

const runningFromSource = import.meta.url.endsWith('.ts');
const DEFAULT_ENTRY = new URL(
  runningFromSource ? './image-worker-source.mjs' : './image-worker.js',
  import.meta.url,
);
/** A 64-megapixel AVIF takes some seconds on a loaded 2-core machine; a minute means something is wrong. */
const DEFAULT_TIMEOUT_MS = 60_000;

const shuttingDown = () => new HttpError(503, 'OVERLOADED', OVERLOADED_MESSAGE);
const stopped = (why: string) => new Error(`The image worker stopped: ${why}`);

interface Thread {
  worker: Worker;
  /** The job it works on, or a placeholder while it is handed out; null when free. */
  job: Pending | null;
  dead: boolean;
  /** Marks it dead (settling its job with `error`), then stops its thread. */
  kill(error: Error): void;
}

interface Pending {
  id: number;
  settle(outcome: FromImageWorker | Error): void;
}

const HANDED_OUT: Pending = { id: 0, settle: () => {} };

export function imageWorkers(size: number, options: ImageWorkerOptions = {}): ImageWorkers {
  if (size < 1) throw new Error('size must be at least 1');
  const entry = options.entry ?? DEFAULT_ENTRY;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const threads: Thread[] = [];
  const waiting: Array<{ resolve: (thread: Thread) => void; reject: (error: Error) => void }> = [];
  let nextJob = 1;
  let closed = false;

  function spawn(): Thread {
    const worker = new Worker(entry);
    // An idle worker never keeps the process alive; a request in flight does anyway.
    worker.unref();
    const die = (error: Error) => {
      if (thread.dead) return;
      thread.dead = true;
      const index = threads.indexOf(thread);
      if (index !== -1) threads.splice(index, 1);
      const job = thread.job;
      thread.job = null;
      job?.settle(error);
      // Someone waiting for a worker gets a new one in place of this one.
      const next = closed ? undefined : waiting.shift();
      if (next) next.resolve(handOut(spawn()));
    };
    const thread: Thread = {
      worker,
      job: null,
      dead: false,
      kill(error) {
        die(error);
        void worker.terminate();
      },
    };
    worker.on('message', (message: FromImageWorker) => {
      if (thread.job?.id === message.job) thread.job.settle(message);
    });
    worker.on('error', (error) => die(stopped(error.message)));
    worker.on('exit', (code) => die(stopped(`exit code ${code}`)));
    threads.push(thread);
    return thread;
  }

  function handOut(thread: Thread): Thread {
    thread.job = HANDED_OUT;
    return thread;
  }

  function release(thread: Thread) {
    if (thread.dead) return;
    thread.job = null;
    const next = waiting.shift();
    if (next) next.resolve(handOut(thread));
  }

  async function acquire(): Promise<Thread> {
    if (closed) throw shuttingDown();
    const free = threads.find((thread) => thread.job === null && !thread.dead);
    if (free) return handOut(free);
    if (threads.length < size) return handOut(spawn());
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  }

  return {
    get threads() {
      return threads.length;
    },

    async begin() {
      const thread = await acquire();
      const id = nextJob++;
      let failure: Error | null = null;
      let answer: ((outcome: FromImageWorker | Error) => void) | null = null;
      thread.job = {
        id,
        settle(outcome) {
          if (answer) answer(outcome);
          else if (outcome instanceof Error) failure = outcome;
        },
      };
      let done = false;
      const post = (message: ToImageWorker, transfer: ArrayBuffer[] = []) => {
        if (!thread.dead) thread.worker.postMessage(message, transfer);
      };
      return {
        push(bytes) {
          if (done || failure) return;
          const message: ToImageWorker = { type: 'chunk', job: id, bytes };
          // A piece that is the whole of its memory (what the HTTP parser hands over for a read that is
          // all file) is moved, not copied: its memory leaves this thread's heap at once instead of
          // waiting here, counted as external memory, for a full garbage collection to free it.
          if (ownsItsMemory(bytes)) {
            try {
              post(message, [bytes.buffer]);
              return;
            } catch {
              // Not transferable after all (an untransferable pool): copied below.
            }
          }
          post(message);
        },
        abort() {
          if (done) return;
          done = true;
          post({ type: 'abort', job: id });
          release(thread);
        },
        async finish() {
          if (done) throw new Error('This upload was already finished');
          done = true;
          try {
            const outcome = await new Promise<FromImageWorker | Error>((resolve) => {
              if (failure) return resolve(failure);
              const timer = setTimeout(
                () => thread.kill(stopped(`no answer within ${timeoutMs / 1000} s`)),
                timeoutMs,
              );
              answer = (outcome) => {
                clearTimeout(timer);
                resolve(outcome);
              };
              post({ type: 'end', job: id });
            });
            return answerOf(outcome);
          } finally {
            release(thread);
          }
        },
      };
    },

    async close() {
      closed = true;
      for (const { reject } of waiting.splice(0)) reject(shuttingDown());
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
    },
  };
}

/** Frees the variants' memory now, once they are stored (lib/free-now.ts). `image` must not be read afterwards. */
export function freeVariants(image: ProcessedImage): void {
  freeNow(image.variants.map((variant) => variant.bytes));
}

function answerOf(outcome: FromImageWorker | Error): ProcessedImage {
  if (outcome instanceof Error) throw outcome;
  if (outcome.type === 'refused') throw new HttpError(outcome.statusCode, outcome.code, outcome.message);
  if (outcome.type === 'failed') throw new Error(`Image processing failed: ${outcome.message}`);
  return {
    key: outcome.key,
    width: outcome.width,
    height: outcome.height,
    variants: outcome.variants.map((variant) => ({
      name: variant.name,
      contentType: variant.contentType,
      bytes: Buffer.from(variant.bytes.buffer, variant.bytes.byteOffset, variant.bytes.byteLength),
    })),
  };
}
