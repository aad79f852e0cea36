import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { collectStartUpGarbage } from './gc-tuning';

describe("the start-up collection (the server's main.ts)", () => {
  it('collects without leaving gc on this scope, on later contexts or on later worker threads', async () => {
    collectStartUpGarbage();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    expect(runInNewContext('typeof gc')).toBe('undefined');
    const worker = new Worker('require("node:worker_threads").parentPort.postMessage(typeof gc)', {
      eval: true,
    });
    const seen = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(seen).toBe('undefined');
  });
});
