#!/usr/bin/env node
// Runs the API test suite (vitest project 'api') once, on one PostgreSQL:
//   - by default the embedded server (the PostgreSQL 18 `npm start` runs), started by the suite itself
//     on a temporary data folder (src/server/test/global-setup.ts);
//   - with DATABASE_URL, that server (one where tests may create and drop databases);
//   - with --external, a throwaway cluster of the operating system's PostgreSQL (Debian's; the oldest
//     major version the README supports), started here and removed afterwards.
//
//   node scripts/test-api.mjs [--external] [extra vitest args…]
//
// The tests run under the same Node as this script (its folder goes first on PATH), so
// `PATH=/path/to/node24/bin:$PATH node scripts/test-api.mjs` tests on that Node.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const external = process.argv.includes('--external');
const extraArgs = process.argv.slice(2).filter((arg) => arg !== '--external');
const nodeBinDir = path.dirname(process.execPath);
// Test files at once. Each waits on PostgreSQL most of its time, so more files than cores keep both busy:
// on 2 cores the suite took 154 s with 3 against about 400 s with vitest's default of one (2026-11-28).
// A later --maxWorkers among the extra arguments wins.
const WORKERS = Math.max(3, Math.ceil(os.availableParallelism() * 1.5));
// Each worker keeps its modules from one test file to the next (vitest's --no-isolate) instead of loading
// the whole app again for each of the ~60 files: module loading went from 125 s to 13 s of the workers'
// time and the embedded run from 341 s (CI) to 267 s (2026-11-29). The files share no module state that
// matters: none mocks a module (the one spy on a module, fs.renameSync in pglite-move, is restored in its
// test), stubs a global or changes process.env, each builds its own app on its own database, and the one
// setup file (no-overlapping-queries.ts) is written to run once per file in a shared process. (Once
// suspected of a CI timeout and reverted, 8421bcf: the timeout came back without it; the raised time
// limits had not reached the tests, 2b06138.)
// Files that test the embedded server whatever the suite runs on: each starts embedded PostgreSQL servers
// of its own, so on an external server they would run the embedded run's tests again (a combination,
// not a target: docs/decisions/041). The embedded run has them.
const EMBEDDED_ONLY = ['src/server/db/pglite-move.api.test.ts'];

/** postgres://user:secret@host/db → postgres://user:***@host/db */
function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

function header(text) {
  const line = '='.repeat(Math.min(100, Math.max(40, text.length + 4)));
  console.log(`\n${line}\n  ${text}\n${line}\n`);
}

const seconds = (start) => `${((performance.now() - start) / 1000).toFixed(1)} s`;

/** Runs `npx vitest run --project api …` and resolves its exit code. Undefined values unset a variable. */
function runVitest(overrides, excluded = []) {
  const env = { ...process.env, PATH: [nodeBinDir, process.env.PATH].filter(Boolean).join(path.delimiter) };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      [
        'vitest',
        'run',
        '--project',
        'api',
        `--maxWorkers=${WORKERS}`,
        '--no-isolate',
        ...excluded.flatMap((file) => ['--exclude', file]),
        ...extraArgs,
      ],
      {
        cwd: repoRoot,
        stdio: 'inherit',
        env,
      },
    );
    child.once('error', (error) => {
      console.error(`Could not run vitest: ${error.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const start = performance.now();
let cluster;
let code = 1;
let name;
try {
  let databaseUrl = process.env.DATABASE_URL;
  if (external && !databaseUrl) {
    const { startThrowawayCluster } = await import('./pg-cluster.mjs');
    const clusterStart = performance.now();
    cluster = await startThrowawayCluster();
    databaseUrl = cluster.url;
    name = `PostgreSQL ${cluster.version} (throwaway cluster, started in ${seconds(clusterStart)})`;
  } else if (databaseUrl) {
    name = `PostgreSQL at DATABASE_URL ${redact(databaseUrl)}`;
  } else {
    name = 'the embedded PostgreSQL';
  }
  header(`API tests on ${name}, Node ${process.version}`);
  if (databaseUrl) console.log(`Left to the embedded run: ${EMBEDDED_ONLY.join(', ')}\n`);
  code = await runVitest({ DATABASE_URL: databaseUrl }, databaseUrl ? EMBEDDED_ONLY : []);
} catch (error) {
  header('API tests (could not start their database)');
  console.error(error instanceof Error ? error.message : error);
  code = 1;
} finally {
  await cluster?.stop();
}
console.log(
  `\nAPI tests on ${name}: ${code === 0 ? 'passed' : `FAILED (exit code ${code})`} in ${seconds(start)}`,
);
process.exitCode = code;
