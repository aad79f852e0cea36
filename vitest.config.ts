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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The API suite: buildApp() + app.inject against a real database, chosen by MALL_TEST_DATABASE
        // (pglite | postgres). scripts/test-api.mjs runs it once for each.
        test: {
          name: 'api',
          include: ['src/**/*.api.test.ts'],
          // Several servers on one database: PostgreSQL only (an embedded data directory has one server).
          exclude: process.env.MALL_TEST_DATABASE === 'postgres' ? [] : ['src/**/*.postgres.api.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['src/server/test/global-setup.ts'],
          setupFiles: ['src/server/test/no-overlapping-queries.ts'],
        },
      },
    ],
  },
});
