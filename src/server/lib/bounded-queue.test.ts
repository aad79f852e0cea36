import { describe, expect, it } from 'vitest';
import { BoundedQueue } from './bounded-queue';

/** A task that runs until `finish` is called. */
function task() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { run: () => done, finish };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BoundedQueue', () => {
  it('runs at most `concurrency` tasks, queues `maxWaiting` more in order, and refuses the rest at once', async () => {
    const queue = new BoundedQueue(2, 2);
    const tasks = Array.from({ length: 4 }, task);
    const started: number[] = [];
    const runs = tasks.map((t, i) => {
      const ticket = queue.reserve();
      if (!ticket) throw new Error(`no place for task ${i}`);
      return ticket.run(() => {
        started.push(i);
        return t.run();
      });
    });
    expect(queue.reserve()).toBeNull();
    await tick();
    expect(started).toEqual([0, 1]);
    expect(queue.size).toEqual({ running: 2, waiting: 2 });

    tasks[1]?.finish();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    tasks[0]?.finish();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    tasks[2]?.finish();
    tasks[3]?.finish();
    await Promise.all(runs);
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it('gives a place back when a ticket is released unused, waiting or granted', async () => {
    const queue = new BoundedQueue(1, 1);
    const first = queue.reserve();
    const second = queue.reserve();
    expect(queue.reserve()).toBeNull();
    second?.release();
    expect(queue.size).toEqual({ running: 1, waiting: 0 });
    const third = queue.reserve();
    expect(third).not.toBeNull();
    first?.release();
    first?.release();
    // The place passed to the third ticket; releasing it unused frees the queue entirely.
    expect(queue.size).toEqual({ running: 1, waiting: 0 });
    third?.release();
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it('passes the turn on when a task fails', async () => {
    const queue = new BoundedQueue(1, 1);
    const failing = queue.reserve()?.run(() => Promise.reject(new Error('scrypt failed')));
    const next = queue.reserve()?.run(async () => 'ran');
    await expect(failing).rejects.toThrow('scrypt failed');
    await expect(next).resolves.toBe('ran');
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });
});
