import os from 'node:os';

import { BoundedQueue } from '../lib/bounded-queue';

/**
 * Password hashing's own bounded queue. scrypt runs on libuv's thread pool (4 threads unless
 * UV_THREADPOOL_SIZE says otherwise), which static files and DNS share; unbounded, a burst of sign-ins
 * filled it and a JavaScript asset waited 21 s behind 32 of them. At most as many hashes run at once as
 * there are cores — always leaving two pool threads for everything else — and eight times that many wait
 * for a turn; past that the caller is told at once (503), instead of queueing without bound.
 */
export function createHashQueue(concurrency: number = defaultHashConcurrency()): BoundedQueue {
  return new BoundedQueue(concurrency, concurrency * 8);
}

/** As many hashes at once as there are cores, leaving two of libuv's pool threads for other work. */
export function defaultHashConcurrency(): number {
  const poolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(os.availableParallelism(), poolSize - 2));
}
