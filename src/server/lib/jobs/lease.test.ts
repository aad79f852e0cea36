import { PgDialect, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobLeases } from './lease';

const jobs = pgTable('jobs', {
  id: text('id').primaryKey(),
  heartbeatAt: timestamp('heartbeat_at'),
  createdAt: timestamp('created_at').notNull(),
});
const columns = { id: jobs.id, heartbeatAt: jobs.heartbeatAt, createdAt: jobs.createdAt };
const rendered = (leases: JobLeases<unknown>) => new PgDialect().sqlToQuery(leases.expired(columns));

describe('JobLeases', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renews the held jobs every quarter of the lease, and stops when none is held', async () => {
    const renewed: string[][] = [];
    const leases = new JobLeases<{ rows: number }>({
      seconds: 60,
      renew: async (ids) => void renewed.push(ids),
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(renewed).toEqual([]);

    leases.hold('a', { rows: 0 });
    leases.hold('b', { rows: 5 });
    await vi.advanceTimersByTimeAsync(14_999);
    expect(renewed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(renewed).toEqual([['a', 'b']]);

    leases.release('a');
    await vi.advanceTimersByTimeAsync(15_000);
    expect(renewed).toEqual([['a', 'b'], ['b']]);

    leases.release('b');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(renewed).toHaveLength(2);
  });

  it('keeps each job’s state, read and changed while it is held', () => {
    const leases = new JobLeases<{ rows: number }>({ seconds: 60, renew: async () => undefined });
    const state = { rows: 0 };
    leases.hold('a', state);
    state.rows = 10;
    expect(leases.has('a')).toBe(true);
    expect(leases.get('a')).toEqual({ rows: 10 });
    expect(leases.ids()).toEqual(['a']);
    leases.release('a');
    expect(leases.has('a')).toBe(false);
    expect(leases.get('a')).toBeUndefined();
  });

  it('goes on beating when a renewal fails (thrown or rejected)', async () => {
    let calls = 0;
    const leases = new JobLeases({
      seconds: 4,
      renew: (): Promise<void> => {
        calls++;
        if (calls === 1) throw new Error('no database');
        return Promise.reject(new Error('still none'));
      },
    });
    leases.hold('a', null);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(calls).toBe(3);
    leases.release('a');
  });

  it('judges a lease on the database’s clock, from the row’s start until its first heartbeat, never one held here', () => {
    const leases = new JobLeases({ seconds: 90, renew: async () => undefined });
    const none = rendered(leases);
    expect(none.sql).toBe(
      'coalesce("jobs"."heartbeat_at", "jobs"."created_at") < now() - make_interval(secs => $1)',
    );
    expect(none.params).toEqual([90]);
    leases.hold('mine', null);
    leases.hold('also mine', null);
    const held = rendered(leases);
    expect(held.sql).toBe(
      '(coalesce("jobs"."heartbeat_at", "jobs"."created_at") < now() - make_interval(secs => $1) and "jobs"."id" not in ($2, $3))',
    );
    expect(held.params).toEqual([90, 'mine', 'also mine']);
    leases.release('mine');
    leases.release('also mine');
  });
});
