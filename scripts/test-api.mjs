#!/usr/bin/env node
// Runs the API test suite (vitest project 'api') twice: on the embedded database (PGlite), then on a
// real PostgreSQL server: DATABASE_URL when set (a server where tests may create and drop databases),
// else a throwaway cluster started here and removed afterwards.
//
//   node scripts/test-api.mjs [extra vitest args…]
//
// The tests run under the same Node as this script (its folder goes first on PATH), so
// `PATH=/path/to/node24/bin:$PATH node scripts/test-api.mjs` tests on that Node.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extraArgs = process.argv.slice(2);
const nodeBinDir = path.dirname(process.execPath);

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
function runVitest(overrides) {
  const env = { ...process.env, PATH: [nodeBinDir, process.env.PATH].filter(Boolean).join(path.delimiter) };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', '--project', 'api', ...extraArgs], {
      cwd: repoRoot,
      stdio: 'inherit',
      env,
    });
    child.once('error', (error) => {
      console.error(`Could not run vitest: ${error.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const results = [];

// 1. PGlite. The tests choose the database from MALL_TEST_DATABASE; DATABASE_URL must not leak into it.
{
  header(`API tests on PGlite (Node ${process.version})`);
  const start = performance.now();
  const code = await runVitest({ MALL_TEST_DATABASE: 'pglite', DATABASE_URL: undefined });
  results.push({ name: 'PGlite', code, time: seconds(start) });
}

// 2. PostgreSQL.
{
  const start = performance.now();
  let cluster;
  let code = 1;
  let databaseUrl = process.env.DATABASE_URL;
  try {
    if (databaseUrl) {
      header(`API tests on PostgreSQL (DATABASE_URL ${redact(databaseUrl)}, Node ${process.version})`);
    } else {
      const { startThrowawayCluster } = await import('./pg-cluster.mjs');
      const clusterStart = performance.now();
      cluster = await startThrowawayCluster();
      databaseUrl = cluster.url;
      header(
        `API tests on PostgreSQL (throwaway PostgreSQL ${cluster.version} cluster at ${cluster.url}, ` +
          `started in ${seconds(clusterStart)}, Node ${process.version})`,
      );
    }
    code = await runVitest({ MALL_TEST_DATABASE: 'postgres', DATABASE_URL: databaseUrl });
  } catch (error) {
    header('API tests on PostgreSQL (could not start)');
    console.error(error instanceof Error ? error.message : error);
    code = 1;
  } finally {
    await cluster?.stop();
  }
  results.push({ name: 'PostgreSQL', code, time: seconds(start) });
}

console.log('');
for (const { name, code, time } of results) {
  console.log(`API tests on ${name}: ${code === 0 ? 'passed' : `FAILED (exit code ${code})`} in ${time}`);
}
process.exitCode = results.every(({ code }) => code === 0) ? 0 : 1;
