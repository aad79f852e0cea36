import type { FastifyReply } from 'fastify';
import { HttpError } from '../errors';
import { OVERLOADED_MESSAGE, RETRY_AFTER_SECONDS } from '../overload';

/**
 * Work that takes a core or much memory for a while (a password hash, an image's decoding) runs through
 * one of these: at most `concurrency` tasks at once and at most `maxWaiting` waiting for a turn; past
 * that the caller is told at once (503), instead of queueing without bound.
 */
export class BoundedQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {
    if (concurrency < 1) throw new Error('concurrency must be at least 1');
  }

  /** Tasks running and waiting now. */
  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * A place in the queue, taken now — or null when the queue is full. The caller must either `run` one
   * task with it or `release` it.
   */
  reserve(): QueueTicket | null {
    if (this.running < this.concurrency) {
      this.running++;
      return new QueueTicket(Promise.resolve(), () => this.finish());
    }
    if (this.waiting.length >= this.maxWaiting) return null;
    let grant!: () => void;
    const granted = new Promise<void>((resolve) => {
      grant = resolve;
    });
    this.waiting.push(grant);
    return new QueueTicket(granted, () => {
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

export class QueueTicket {
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

/** A place in `queue`, or 503 + Retry-After when it is full (never an unbounded wait). */
export function turnIn(queue: BoundedQueue, reply: FastifyReply): QueueTicket {
  const ticket = queue.reserve();
  if (ticket) return ticket;
  reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  throw new HttpError(503, 'OVERLOADED', OVERLOADED_MESSAGE);
}
