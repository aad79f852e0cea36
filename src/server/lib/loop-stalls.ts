// The event loop's stalls, each split into the time the thread waited for a core and the rest (the bench
// only: MALL_BENCH_ROUTES). monitorEventLoopDelay says how late a timer ran; on a machine whose cores are
// all busy, part of that lateness is the kernel's run queue — the thread was ready and no core was free —
// which no code of ours can shorten. Linux counts a thread's run-queue wait in /proc/thread-self/schedstat
// (field 2, ns), so a stall's "blocked" part is its wall time less that wait: the thread running our code,
// or asleep in a call (a lock, a synchronous read), which is what "the event loop is blocked" means.
import { closeSync, openSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** A thread's scheduler counters: nanoseconds on a core, and waiting in the run queue. */
export interface SchedCounters {
  runNs: number;
  waitNs: number;
}

/** One late tick of the watcher's timer. */
export interface Stall {
  /** When it ended: milliseconds since the measurement began. */
  atMs: number;
  /** Milliseconds since the previous tick (the timer's own 1 ms period included). */
  wallMs: number;
  /** Of those, waiting for a core. */
  waitMs: number;
  /** Of those, on a core. */
  runMs: number;
  /** wallMs − waitMs: running or asleep in a call, i.e. the loop blocked by the server itself. */
  blockedMs: number;
}

export interface StallFigures {
  /** The longest tick-to-tick time (as monitorEventLoopDelay's maximum). */
  maxWallMs: number;
  /** The longest blocked part of a tick. */
  maxBlockedMs: number;
  /** The stalls over the threshold, longest wall first (at most `keep`). */
  stalls: Stall[];
  ticks: number;
  /** When the measurement began, on this process's clock (performance.now(): --trace-gc's times are close). */
  beganAtMs: number;
}

/** Reads this thread's counters from /proc (Linux); null where there is no such file. */
export function threadCounters(): { read: () => SchedCounters; close: () => void } | null {
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return null;
  }
  const buffer = Buffer.alloc(128);
  return {
    read() {
      // The file is made anew at each read from offset 0.
      const length = readSync(fd, buffer, 0, buffer.length, 0);
      const [run, wait] = buffer.toString('latin1', 0, length).split(' ');
      return { runNs: Number(run), waitNs: Number(wait) };
    },
    close: () => closeSync(fd),
  };
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/**
 * Ticks every millisecond and records each tick later than `thresholdMs`, with the thread's counters'
 * change over it. `counters` and `clock` are for tests.
 */
export function watchLoopStalls(
  options: { thresholdMs?: number; keep?: number; counters?: () => SchedCounters; clock?: () => number } = {},
) {
  const { thresholdMs = 10, keep = 20 } = options;
  const ownCounters = options.counters ? null : threadCounters();
  const counters = options.counters ?? ownCounters?.read ?? (() => ({ runNs: 0, waitNs: 0 }));
  const clock = options.clock ?? (() => performance.now());
  let figures: StallFigures;
  let last: { at: number; counters: SchedCounters };
  let began = 0;
  const reset = () => {
    last = { at: clock(), counters: counters() };
    began = last.at;
    figures = { maxWallMs: 0, maxBlockedMs: 0, stalls: [], ticks: 0, beganAtMs: round(began) };
  };
  reset();
  const tick = () => {
    const at = clock();
    const now = counters();
    const wallMs = at - last.at;
    const waitMs = Math.min(wallMs, (now.waitNs - last.counters.waitNs) / 1e6);
    const runMs = (now.runNs - last.counters.runNs) / 1e6;
    last = { at, counters: now };
    figures.ticks++;
    const blockedMs = wallMs - waitMs;
    if (wallMs > figures.maxWallMs) figures.maxWallMs = wallMs;
    if (blockedMs > figures.maxBlockedMs) figures.maxBlockedMs = blockedMs;
    if (wallMs > thresholdMs) {
      figures.stalls.push({
        atMs: Math.round(at - began),
        wallMs: round(wallMs),
        waitMs: round(waitMs),
        runMs: round(runMs),
        blockedMs: round(blockedMs),
      });
      figures.stalls.sort((a, b) => b.wallMs - a.wallMs);
      figures.stalls.length = Math.min(figures.stalls.length, keep);
    }
  };
  const timer = setInterval(tick, 1);
  timer.unref();
  return {
    /** What was seen since the last call (or the start), then a new measurement. */
    take(): StallFigures {
      const taken = {
        ...figures,
        maxWallMs: round(figures.maxWallMs),
        maxBlockedMs: round(figures.maxBlockedMs),
      };
      reset();
      return taken;
    },
    /** For tests: one tick now. */
    tick,
    stop() {
      clearInterval(timer);
      ownCounters?.close();
    },
  };
}
