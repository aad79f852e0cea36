import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
          exclude: ['src/**/*.api.test.ts'],
          environment: 'node',
          // Its slow files mostly wait for processes they start (embedded PostgreSQL, a server), so one
          // per core, not vitest's default of cores − 1 (one on 2 cores: 110 s; two: see the CI log; four
          // took 61 s alone but, beside the type check in CI, starved the timing tests).
          maxWorkers: Math.max(2, os.availableParallelism()),
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The API suite: buildApp() + app.inject against a real PostgreSQL: the embedded server the run
        // starts, or DATABASE_URL's (scripts/test-api.mjs).
        test: {
          name: 'api',
          include: ['src/**/*.api.test.ts'],
          environment: 'node',
          // Hang detectors, not speed checks. A project's own limits win over vitest's --testTimeout and
          // --hookTimeout, so a run that shares the cores (CI's, beside the browser tests) raises them here.
          testTimeout: Number(process.env.MALL_TEST_TIMEOUT_MS ?? 30_000),
          hookTimeout: Number(process.env.MALL_HOOK_TIMEOUT_MS ?? 60_000),
          globalSetup: ['src/server/test/global-setup.ts'],
          setupFiles: ['src/server/test/no-overlapping-queries.ts'],
        },
      },
    ],
  },
});
