import os from 'node:os';

/**
 * Password hashing's own bounded queue. scrypt runs on libuv's thread pool (4 threads unless
 * UV_THREADPOOL_SIZE says otherwise), which static files and DNS share; unbounded, a burst of sign-ins
 * filled it and a JavaScript asset waited 21 s behind 32 of them. At most `concurrency` hashes run at
 * once — never more than the cores, and always two pool threads left for everything else — and at
 * most `maxWaiting` wait for a turn; past that the caller is told at once (503), instead of queueing
 * without bound.
 */
export class HashQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number = defaultHashConcurrency(),
    readonly maxWaiting: number = concurrency * 8,
  ) {
    if (concurrency < 1) throw new Error('hash concurrency must be at least 1');
  }

  /** Hashes running and waiting now. */
  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * A place in the queue, taken now — or null when the queue is full. The caller must either `run` one
   * task with it or `release` it.
   */
  reserve(): HashTicket | null {
    if (this.running < this.concurrency) {
      this.running++;
      return new HashTicket(Promise.resolve(), () => this.finish());
    }
    if (this.waiting.length >= this.maxWaiting) return null;
    let grant!: () => void;
    const granted = new Promise<void>((resolve) => {
      grant = resolve;
    });
    this.waiting.push(grant);
    return new HashTicket(granted, () => {
      const place = this.waiting.indexOf(grant);
      // Still waiting: leave the line. Its turn came already: pass the turn on.
      if (place !== -1) this.waiting.splice(place, 1);
      else this.finish();
    });
  }

  private finish() {
    const next = this.waiting.shift();
    // The running count passes straight to the next in line.
    if (next) next();
    else this.running--;
  }
}

export class HashTicket {
  private released = false;

  constructor(
    private readonly turn: Promise<void>,
    private readonly onRelease: () => void,
  ) {}

  /** Waits for this ticket's turn, runs the task, then gives the place to the next in line. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.turn;
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Gives the place back without running anything (safe to call more than once). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease();
  }
}

/** As many hashes at once as there are cores, leaving two of libuv's pool threads for other work. */
export function defaultHashConcurrency(): number {
  const poolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(os.availableParallelism(), poolSize - 2));
}
