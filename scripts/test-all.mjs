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
import { stripVTControlCharacters } from 'node:util';

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

// Lines that name a failing test: vitest's `FAIL file > test` and `×`, Playwright's `✘` and the
// `[project] › file:line › title` list under its `N failed` summary. They are repeated under the timing
// table, so the end of a long log (all CI shows of it) says which test failed, not only which step.
const FAILURE_LINE = /^\s*(?:FAIL\s|×\s|✘\s|\d+ (?:failed|flaky)$|\[(?:desktop|phone)\] › )/;
const failureLines = [];
const noteFailures = (text) => {
  for (const line of stripVTControlCharacters(text).split('\n')) {
    if (FAILURE_LINE.test(line) && failureLines.length < 40) failureLines.push(line.trimEnd());
  }
};

/** Runs `command` in a shell; its output to ours (and scanned for failures), or to `logFile`. Resolves its exit code. */
const run = (command, logFile) =>
  new Promise((resolve) => {
    const out = logFile ? fs.openSync(logFile, 'w') : 'pipe';
    const child = spawn(command, {
      shell: true,
      stdio: ['ignore', out, out],
      // Piped, the step would drop its colours on a terminal: keep them there.
      env: {
        ...process.env,
        MALL_TEST_ALONGSIDE_E2E: '',
        ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}),
      },
    });
    if (!logFile) {
      let rest = '';
      const scan = (chunk) => {
        const lines = (rest + chunk.toString('utf8')).split('\n');
        rest = lines.pop() ?? '';
        noteFailures(lines.join('\n'));
      };
      child.stdout.on('data', (chunk) => {
        process.stdout.write(chunk);
        scan(chunk);
      });
      child.stderr.on('data', (chunk) => {
        process.stderr.write(chunk);
        scan(chunk);
      });
    }
    child.once('close', (code, signal) => {
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
    const text = fs.readFileSync(logFile);
    process.stdout.write(text);
    if (sideCode !== 0) noteFailures(text.toString('utf8'));
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
  if (failureLines.length)
    console.log(`The failing tests, as the step printed them:\n${failureLines.join('\n')}`);
  process.exitCode = 1;
}
