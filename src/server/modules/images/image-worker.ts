// An image worker (docs/decisions/020): decodes uploads on a thread of its own, so that the upload's
// bytes, the decoded 1200-px base and sharp's buffers are allocated — and garbage-collected — in this
// thread's V8 heap, never in the HTTP server's. The server sends the file's pieces as they arrive
// (copied by postMessage), then `end`; this thread hashes them as they come, joins them, runs
// processImage and hands back only the small variants (transferred, not copied). One upload at a time.
import { parentPort } from 'node:worker_threads';
import { HttpError } from '../../errors';
import { contentHasher, processImage } from './pipeline';

/** The server's messages, one job at a time; `job` tells a late message of an abandoned job apart. */
export type ToImageWorker =
  | { type: 'chunk'; job: number; bytes: Uint8Array }
  | { type: 'end'; job: number }
  | { type: 'abort'; job: number };

export interface WorkerVariant {
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

/** The worker's answers: the image, a refusal with the words for the person (422…), or a failure (500). */
export type FromImageWorker =
  | { type: 'done'; job: number; key: string; width: number; height: number; variants: WorkerVariant[] }
  | { type: 'refused'; job: number; statusCode: number; code: string; message: string }
  | { type: 'failed'; job: number; message: string };

const port = parentPort;
if (!port) throw new Error('image-worker must run as a worker thread');

interface Job {
  id: number;
  chunks: Uint8Array[];
  hasher: ReturnType<typeof contentHasher>;
}

let current: Job | null = null;

port.on('message', (message: ToImageWorker) => {
  if (message.type === 'abort') {
    if (current?.id === message.job) current = null;
    return;
  }
  if (!current || current.id !== message.job)
    current = { id: message.job, chunks: [], hasher: contentHasher() };
  if (message.type === 'chunk') {
    current.chunks.push(message.bytes);
    current.hasher.update(message.bytes);
    return;
  }
  const job = current;
  current = null;
  void finish(job);
});

async function finish(job: Job): Promise<void> {
  let answer: FromImageWorker;
  const transfer: ArrayBuffer[] = [];
  try {
    const file = Buffer.concat(job.chunks);
    job.chunks.length = 0;
    const image = await processImage(file, { hash: job.hasher.digest() });
    const variants = image.variants.map((variant) => {
      // A copy in memory this isolate allocated, so it can be moved (sharp's own buffers are external).
      const bytes = new Uint8Array(variant.bytes.length);
      bytes.set(variant.bytes);
      transfer.push(bytes.buffer);
      return { name: variant.name, contentType: variant.contentType, bytes };
    });
    answer = {
      type: 'done',
      job: job.id,
      key: image.key,
      width: image.width,
      height: image.height,
      variants,
    };
  } catch (error) {
    answer =
      error instanceof HttpError
        ? {
            type: 'refused',
            job: job.id,
            statusCode: error.statusCode,
            code: error.code,
            message: error.message,
          }
        : { type: 'failed', job: job.id, message: error instanceof Error ? error.message : String(error) };
  }
  port?.postMessage(answer, transfer);
}
