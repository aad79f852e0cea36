import os from 'node:os';

import { BoundedQueue, type QueueTicket } from '../lib/bounded-queue';

/**
 * Password hashing's own bounded queue. scrypt runs on libuv's thread pool (4 threads unless
 * UV_THREADPOOL_SIZE says otherwise), which static files and DNS share; unbounded, a burst of sign-ins
 * filled it and a JavaScript asset waited 21 s behind 32 of them. At most `concurrency` hashes run at
 * once — never more than the cores, and always two pool threads left for everything else — and at
 * most `maxWaiting` wait for a turn; past that the caller is told at once (503), instead of queueing
 * without bound.
 */
export class HashQueue extends BoundedQueue {
  constructor(concurrency: number = defaultHashConcurrency(), maxWaiting: number = concurrency * 8) {
    super(concurrency, maxWaiting);
  }
}

export type HashTicket = QueueTicket;

/** As many hashes at once as there are cores, leaving two of libuv's pool threads for other work. */
export function defaultHashConcurrency(): number {
  const poolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(os.availableParallelism(), poolSize - 2));
}
