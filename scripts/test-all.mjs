#!/usr/bin/env node
// `npm test`: every suite once, stopping at the first failure, then a table of where the time went (CI
// prints it too). Each step is an npm script, runnable on its own.
//
// Some run beside another, their output kept in a file and printed after it, because the other leaves a
// core idle: the type check (one thread) and the lint beside the unit tests; and, when
// MALL_TEST_ALONGSIDE_E2E is set (CI sets it, .ci/run), that command beside the build and the end-to-end
// step — the browser tests mostly wait (for pages, the server, animations: with two workers they used
// about a third of 2 cores), so another suite beside them takes less time than after them. A failure
// beside a step fails `npm test` as the step's own would.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const alongsideE2e = process.env.MALL_TEST_ALONGSIDE_E2E?.trim();
/** [name, command, [name, command] run beside it (in turn), or none]. */
const steps = [
  [
    'unit tests',
    'npm run test:unit',
    [
      ['typecheck', 'npm run typecheck'],
      ['lint', 'npm run lint'],
    ],
  ],
  ['API tests (embedded PostgreSQL)', 'npm run test:api', []],
  [
    'build + end-to-end tests (Chromium)',
    'npm run test:e2e',
    alongsideE2e ? [[alongsideE2e, alongsideE2e]] : [],
  ],
];

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
for (const [name, command, besides] of steps) {
  const start = performance.now();
  // Beside the step: each in turn, its output in a file, printed once the step is done.
  const side = (async () => {
    const done = [];
    for (const [sideName, sideCommand] of besides) {
      const sideStart = performance.now();
      const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mall-beside-')), 'output.log');
      console.log(`\nnpm test: beside the ${name}: ${sideCommand} (its output after them)\n`);
      const code = await run(sideCommand, logFile);
      done.push({ sideName, sideCommand, code, logFile, secs: (performance.now() - sideStart) / 1000 });
      if (code !== 0) break;
    }
    return done;
  })();
  const code = await run(command);
  table.push([name, (performance.now() - start) / 1000, outcome(code)]);
  for (const { sideName, sideCommand, code: sideCode, logFile, secs } of await side) {
    console.log(`\n===== beside the ${name}: ${sideCommand} =====\n`);
    process.stdout.write(fs.readFileSync(logFile));
    console.log(`\n===== end of ${sideCommand}: ${outcome(sideCode)} in ${secs.toFixed(1)} s =====`);
    fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
    table.push([`  beside: ${sideName}`, secs, outcome(sideCode)]);
    if (sideCode !== 0) failed ??= `beside the ${name}: ${sideName}`;
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
