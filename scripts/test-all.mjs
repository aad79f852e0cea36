#!/usr/bin/env node
// `npm test`: every suite once, in order, stopping at the first failure, then a table of where the time
// went (CI prints it too). Each step is an npm script, runnable on its own.
//
// MALL_TEST_ALONGSIDE_E2E (CI sets it, .ci/run): a command run at the same time as the build and the
// end-to-end step, its output kept in a file and printed after. The browser tests mostly wait (for pages,
// the server, animations: with two workers they used about a third of 2 cores), so another suite beside
// them takes less time than after them. Its failure fails `npm test`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const steps = [
  ['typecheck', 'npm run typecheck'],
  ['lint', 'npm run lint'],
  ['unit tests', 'npm run test:unit'],
  ['API tests (embedded PostgreSQL)', 'npm run test:api'],
  ['build + end-to-end tests (Chromium)', 'npm run test:e2e'],
];
const E2E_STEP = 'build + end-to-end tests (Chromium)';
const alongside = process.env.MALL_TEST_ALONGSIDE_E2E?.trim();

/** Runs `command` in a shell; its output to ours, or to `logFile`. Resolves its exit code. */
const run = (command, logFile) =>
  new Promise((resolve) => {
    const out = logFile ? fs.openSync(logFile, 'w') : 'inherit';
    const child = spawn(command, {
      shell: true,
      stdio: logFile ? ['ignore', out, out] : 'inherit',
      env: { ...process.env, MALL_TEST_ALONGSIDE_E2E: '' },
    });
    child.once('exit', (code, signal) => {
      if (logFile) fs.closeSync(out);
      resolve(code ?? (signal ? 1 : 0));
    });
  });

const outcome = (code) => (code === 0 ? 'passed' : `FAILED (${code})`);
const table = [];
let failed;
const started = performance.now();
for (const [name, command] of steps) {
  const start = performance.now();
  let side;
  if (name === E2E_STEP && alongside) {
    const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mall-alongside-')), 'output.log');
    console.log(`\nnpm test: alongside the end-to-end tests: ${alongside} (its output after them)\n`);
    side = run(alongside, logFile).then((code) => ({
      code,
      logFile,
      secs: (performance.now() - start) / 1000,
    }));
  }
  const code = await run(command);
  table.push([name, (performance.now() - start) / 1000, outcome(code)]);
  if (side) {
    const { code: sideCode, logFile, secs } = await side;
    console.log(`\n===== alongside the end-to-end tests: ${alongside} =====\n`);
    process.stdout.write(fs.readFileSync(logFile));
    console.log(`\n===== end of ${alongside}: ${outcome(sideCode)} in ${secs.toFixed(1)} s =====`);
    fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
    table.push([`  alongside: ${alongside}`, secs, outcome(sideCode)]);
    if (sideCode !== 0) failed ??= `alongside: ${alongside}`;
  }
  if (code !== 0) failed = name;
  if (failed) break;
}
const total = (performance.now() - started) / 1000;
console.log('\nnpm test: where the time went');
for (const [name, secs, result] of table) {
  console.log(`  ${name.padEnd(40)} ${secs.toFixed(1).padStart(7)} s  ${result}`);
}
console.log(`  ${'total'.padEnd(40)} ${total.toFixed(1).padStart(7)} s`);
if (failed) {
  console.log(`\nnpm test failed in: ${failed}`);
  process.exitCode = 1;
}
