import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { HttpError } from '../../errors';
import { ChildJobSet, runInChild } from './child-job';
import type { SampleRequest, SampleResult } from './fixtures/sample-job';
import { ProcessPool } from './process-pool';

/** The sample job's processes (fixtures/sample-job.ts), at most one kept waiting. */
const pool = new ProcessPool<SampleRequest, SampleResult>({
  entry: new URL('./fixtures/sample-job-source.mjs', import.meta.url),
  keepWaiting: 1,
});
const run = (request: SampleRequest, options: { input?: Uint8Array; progress?: (n: number) => void } = {}) =>
  runInChild(pool, request, { noun: 'sample', ...options });
const alive = (pid: number | undefined) => pid !== undefined && existsSync(`/proc/${pid}`);

afterAll(() => pool.endWaiting());

describe('a job in a pooled child process', () => {
  it('answers the job’s result from another process, with its progress and its input', async () => {
    const counts: number[] = [];
    const counted = run({ do: 'count', to: 3 }, { progress: (n) => counts.push(n) });
    const result = await counted.result;
    expect(result).toMatchObject({ text: 'counted to 3', input: null });
    expect(result.pid).toBe(counted.pid);
    expect(result.pid).not.toBe(process.pid);
    expect(counts).toEqual([1, 2, 3]);

    // More than a pipe holds at once: the bytes arrive whole, through the process's standard input.
    const text = 'héllo, '.repeat(50_000);
    const input = new TextEncoder().encode(text);
    const echoed = await run({ do: 'echo', text: 'with input' }, { input }).result;
    expect(echoed).toMatchObject({ text: 'with input', input: text });
    // The input is freed once the pipe has it all: its buffer is detached.
    for (let i = 0; i < 100 && input.byteLength > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(input.byteLength).toBe(0);
  });

  it('keeps a process whose job ended for the next job, a failed one too, and never more than asked', async () => {
    await pool.endWaiting();
    pool.warm();
    expect(pool.waitingCount).toBe(1);
    const first = run({ do: 'echo', text: 'one' });
    expect(pool.waitingCount).toBe(0);
    await first.result;
    const failed = run({ do: 'throw' });
    await expect(failed.result).rejects.toThrow('The sample failed: boom');
    const third = run({ do: 'echo', text: 'three' });
    await third.result;
    // One process, started ahead of the first job, ran all three.
    expect(failed.pid).toBe(first.pid);
    expect(third.pid).toBe(first.pid);
    // Two jobs at once take two processes; of the two, one is kept (keepWaiting 1), the other ends.
    const a = run({ do: 'echo', text: 'a' });
    const b = run({ do: 'echo', text: 'b' });
    expect(a.pid).not.toBe(b.pid);
    await Promise.all([a.result, b.result]);
    expect(pool.waitingCount).toBe(1);
    for (let i = 0; i < 100 && alive(a.pid) && alive(b.pid); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect([alive(a.pid), alive(b.pid)].sort()).toEqual([false, true]);
    await pool.endWaiting();
    expect(pool.waitingCount).toBe(0);
    expect(alive(a.pid) || alive(b.pid)).toBe(false);
  });

  it('fails with an HttpError whose status, code and message cross the process', async () => {
    await expect(run({ do: 'refuse' }).result).rejects.toMatchObject({
      statusCode: 400,
      code: 'SAMPLE_REFUSED',
      message: 'The sample was refused',
    } satisfies Partial<HttpError>);
  });

  it('fails, never hangs, when its process exits mid-job, and the process is not reused', async () => {
    const crashed = run({ do: 'crash' });
    await expect(crashed.result).rejects.toThrow('The sample stopped (exit code 3)');
    const next = run({ do: 'echo', text: 'after' });
    expect(next.pid).not.toBe(crashed.pid);
    await next.result;
  });

  it('stopped (the server closing), fails at once and its process ends, never to be reused', async () => {
    const hung = run({ do: 'hang' });
    await hung.stop();
    await expect(hung.result).rejects.toThrow('The server stopped during the sample');
    expect(alive(hung.pid)).toBe(false);
    // Stopping a job that has ended does nothing to the process, now another job's.
    const done = run({ do: 'echo', text: 'done' });
    await done.result;
    await done.stop();
    const again = run({ do: 'echo', text: 'again' });
    expect(again.pid).toBe(done.pid);
    await again.result;
  });

  it('a process whose job could not clean up sends its outcome, then ends', async () => {
    const open = run({ do: 'leave-open' });
    expect((await open.result).text).toBe('left something open');
    for (let i = 0; i < 100 && alive(open.pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive(open.pid)).toBe(false);
    const next = run({ do: 'echo', text: 'next' });
    expect(next.pid).not.toBe(open.pid);
    await next.result;
  });
});

describe('ChildJobSet', () => {
  it('follows the jobs under way and stops them all; settled ones leave it', async () => {
    const jobs = new ChildJobSet();
    const done = run({ do: 'echo', text: 'quick' });
    const hung = [run({ do: 'hang' }), run({ do: 'hang' })];
    for (const job of [done, ...hung]) jobs.watch(job);
    await done.result;
    await new Promise((resolve) => setImmediate(resolve));
    expect(jobs.size).toBe(2);
    await jobs.stopAll();
    for (const job of hung) await expect(job.result).rejects.toThrow(/stopped/);
    await new Promise((resolve) => setImmediate(resolve));
    expect(jobs.size).toBe(0);
    expect(hung.some((job) => alive(job.pid))).toBe(false);
  });
});
