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
          // Its slow files mostly wait for processes they start (embedded PostgreSQL, a built server), so
          // more files at once than cores: vitest's default here (cores − 1, one on 2 cores) took 110 s,
          // four 61 s (2026-11-29).
          maxWorkers: Math.max(4, os.availableParallelism()),
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
