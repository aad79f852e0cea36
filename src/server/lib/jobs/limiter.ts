// How many background jobs of a kind (imports…) this server runs at once. Each holds memory and a child
// process for a while, so a job beyond the limit is refused at once — 503 with Retry-After — never
// queued: a place is taken before the job's row is written and turned in when the job ends, whatever
// way it ends. The refusal's code and words are the job module's.
import type { HttpError } from '../../errors';
import { RETRY_AFTER_SECONDS } from '../../overload';
import { BoundedQueue, type QueueTicket } from '../bounded-queue';

export class JobLimiter {
  private readonly places: BoundedQueue;

  constructor(readonly atOnce: number) {
    // No one waits for a place.
    this.places = new BoundedQueue(atOnce, 0);
  }

  /** A place, taken now, or null when all are taken. Turn it in (`release`) when the job ends. */
  reserve(): QueueTicket | null {
    return this.places.reserve();
  }

  /** Places taken now. */
  get running(): number {
    return this.places.size.running;
  }
}

/**
 * A place from `limiter` (or anything that reserves one), or `busy()` (a 503) thrown with a Retry-After
 * header set on `reply` (Fastify's) when none is free: answered at once, nothing stored.
 */
export function placeOrBusy(
  limiter: { reserve(): QueueTicket | null },
  reply: { header(name: string, value: string): unknown },
  busy: () => HttpError,
): QueueTicket {
  const ticket = limiter.reserve();
  if (ticket) return ticket;
  reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  throw busy();
}
