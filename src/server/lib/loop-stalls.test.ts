import { describe, expect, it } from 'vitest';
import { threadCounters, watchLoopStalls } from './loop-stalls';

describe('the event loop stall watcher', () => {
  it('splits a late tick into the wait for a core and the blocked rest', () => {
    let at = 0;
    let counters = { runNs: 0, waitNs: 0 };
    const watcher = watchLoopStalls({ counters: () => counters, clock: () => at, thresholdMs: 10 });
    try {
      // On time: 1 ms, nothing recorded.
      at = 1;
      counters = { runNs: 500_000, waitNs: 0 };
      watcher.tick();
      // 30 ms late, 25 of them in the run queue: blocked 5 ms.
      at = 31;
      counters = { runNs: 5_500_000, waitNs: 25_000_000 };
      watcher.tick();
      // 18 ms spent running our own code: blocked 18 ms.
      at = 49;
      counters = { runNs: 23_500_000, waitNs: 25_000_000 };
      watcher.tick();
      const figures = watcher.take();
      expect(figures.beganAtMs).toBe(0);
      expect(figures.ticks).toBe(3);
      expect(figures.maxWallMs).toBe(30);
      expect(figures.maxBlockedMs).toBe(18);
      expect(figures.stalls).toEqual([
        { atMs: 31, wallMs: 30, waitMs: 25, runMs: 5, blockedMs: 5 },
        { atMs: 49, wallMs: 18, waitMs: 0, runMs: 18, blockedMs: 18 },
      ]);
      // A new measurement starts, from the clock's time at the last take.
      expect(watcher.take()).toMatchObject({
        maxWallMs: 0,
        maxBlockedMs: 0,
        stalls: [],
        ticks: 0,
        beganAtMs: 49,
      });
    } finally {
      watcher.stop();
    }
  });

  it('counts a busy loop as blocked, on the real thread and clock (Linux)', async () => {
    if (!threadCounters()) return;
    const watcher = watchLoopStalls();
    try {
      await new Promise((resolve) => setTimeout(resolve, 5));
      watcher.take();
      // Holds the loop for at least 60 ms, and until the process has had 40 ms of a core (a busy machine
      // gives it less than the wall-clock time: CI once gave it 7 ms of 60), for at most 5 s.
      const started = performance.now();
      const cpuAtStart = process.cpuUsage();
      const ranMs = () => {
        const { user, system } = process.cpuUsage(cpuAtStart);
        return (user + system) / 1000;
      };
      while (performance.now() - started < 5_000 && (performance.now() - started < 60 || ranMs() < 40)) {
        // Busy.
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
      const figures = watcher.take();
      expect(figures.maxWallMs).toBeGreaterThanOrEqual(60);
      // The thread ran about 40 ms of it itself: the watcher, reading its own counters, must see that.
      expect(figures.stalls[0]?.runMs).toBeGreaterThan(10);
      expect(figures.maxBlockedMs).toBeGreaterThan(10);
    } finally {
      watcher.stop();
    }
  });
});
