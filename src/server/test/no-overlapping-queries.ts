// Every API test file fails when pg saw a query sent to a client still running one — inside a transaction,
// which is one connection (write-path.ts `readsOn`). pg 8 warns once per process; pg 9 will throw.
import { afterAll, expect } from 'vitest';

const key = Symbol.for('super-mall.pg-overlaps');
const state = globalThis as unknown as Record<symbol, string[] | undefined>;
if (!state[key]) {
  const seen: string[] = [];
  state[key] = seen;
  process.on('warning', (warning) => {
    if (/already executing a query/.test(warning.message)) seen.push(warning.message);
  });
}

afterAll(() => {
  const seen = state[key] ?? [];
  const found = seen.splice(0);
  expect(found, 'a query was sent to a pg client still running one').toEqual([]);
});
