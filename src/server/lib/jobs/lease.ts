// The leases of the background jobs this server works on (an import's run…), each job a row with a
// heartbeat column: while the server works on a job it renews the job's lease every quarter of the
// lease's length, and a job still marked as under way whose lease ran out was interrupted — its server
// stopped — which only the lease tells apart from a busy job of another server. The database's clock
// both writes the heartbeat (`renew`, with now()) and judges it (`expired`), so the servers' clocks
// never matter. What a job's row holds and what an interrupted job becomes is its module's.
import { and, notInArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

export interface JobLeaseOptions {
  /** How long a lease lasts without renewal. */
  seconds: number;
  /**
   * Sets the heartbeat of the jobs with these ids to the database's now(). A failure is ignored: the
   * next beat tries again, and a server that cannot reach its database lets its leases run out.
   */
  renew(ids: string[]): Promise<unknown>;
}

/** A job row's columns the lease reads. */
export interface LeaseColumns {
  id: AnyPgColumn;
  /** The last renewal (null before the first). */
  heartbeatAt: AnyPgColumn;
  /** When the job's row was made: its lease's start until its first renewal. */
  createdAt: AnyPgColumn;
}

/**
 * The jobs this process works on, by id, each with its state (its progress…, newer than its row), their
 * leases renewed while any is held.
 */
export class JobLeases<State> {
  private readonly held = new Map<string, State>();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(private readonly options: JobLeaseOptions) {}

  /** Starts renewing the lease of job `id` (its row's heartbeat is already set). */
  hold(id: string, state: State): void {
    this.held.set(id, state);
    if (!this.heartbeat) {
      this.heartbeat = setInterval(() => this.beat(), (this.options.seconds * 1000) / 4);
      this.heartbeat.unref();
    }
  }

  /** Stops renewing the lease of job `id` (it has ended, whatever way). */
  release(id: string): void {
    this.held.delete(id);
    if (this.held.size === 0 && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }

  has(id: string): boolean {
    return this.held.has(id);
  }

  get(id: string): State | undefined {
    return this.held.get(id);
  }

  /** The ids of the jobs held now. */
  ids(): string[] {
    return [...this.held.keys()];
  }

  /** The condition of a job row whose lease ran out and that this process does not hold. */
  expired(columns: LeaseColumns): SQL {
    const mine = this.ids();
    return and(
      sql`coalesce(${columns.heartbeatAt}, ${columns.createdAt}) < now() - make_interval(secs => ${this.options.seconds})`,
      mine.length > 0 ? notInArray(columns.id, mine) : undefined,
    ) as SQL;
  }

  private beat(): void {
    if (this.held.size === 0) return;
    const ids = this.ids();
    void Promise.resolve()
      .then(() => this.options.renew(ids))
      .catch(() => undefined);
  }
}
