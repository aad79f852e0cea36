// How the server's garbage collector is set for a steady event loop (the real server only: main.ts;
// docs/decisions/022, sixth amendment). Measured on the import bench, where the database, the load and
// the import's check share 2 cores with the server.
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Young-generation collections (scavenges) on the main thread alone. A parallel scavenge splits its work
 * with V8's helper threads and waits for them at its end: when a helper is preempted (every core busy),
 * the event loop sleeps until it runs again — one scavenge of the usual 1.5-3 ms took 22 ms so. Alone,
 * the main thread's scavenges took 1.5-6 ms, never waiting. V8 reads the flag at each scavenge, so it
 * may be set after start (Node leaves V8's flags unfrozen for `v8.setFlagsFromString`).
 */
export function serialScavenges(): void {
  v8.setFlagsFromString('--no-parallel-scavenge');
}

/**
 * A full collection once the start-up's work is done (modules, routes, warm-ups): what start-up left in
 * the young generation is promoted now, not by the first scavenge after start, which then copied ~11 MB
 * (13 ms) and started a mark-compact (7-11 ms) under the first large request — the first import's
 * upload. `gc` is exposed to a context of its own only; the server's global scope has none.
 */
export function collectStartUpGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  // Off again: contexts and worker threads made later (the image workers) get no `gc` either.
  v8.setFlagsFromString('--no-expose-gc');
  gc?.();
}
