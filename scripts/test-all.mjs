#!/usr/bin/env node
// `npm test`: every suite once, in order, stopping at the first failure, then a table of where the time
// went (CI prints it too). Each step is an npm script, runnable on its own.
import { spawn } from 'node:child_process';

const steps = [
  ['typecheck', 'npm run typecheck'],
  ['lint', 'npm run lint'],
  ['unit tests', 'npm run test:unit'],
  ['API tests (embedded PostgreSQL)', 'npm run test:api'],
  ['build + end-to-end tests (Chromium)', 'npm run test:e2e'],
];

const run = (command) =>
  new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: 'inherit' });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const table = [];
let failed;
const started = performance.now();
for (const [name, command] of steps) {
  const start = performance.now();
  const code = await run(command);
  table.push([name, (performance.now() - start) / 1000, code === 0 ? 'passed' : `FAILED (${code})`]);
  if (code !== 0) {
    failed = name;
    break;
  }
}
const total = (performance.now() - started) / 1000;
console.log('\nnpm test: where the time went');
for (const [name, secs, outcome] of table) {
  console.log(`  ${name.padEnd(40)} ${secs.toFixed(1).padStart(7)} s  ${outcome}`);
}
console.log(`  ${'total'.padEnd(40)} ${total.toFixed(1).padStart(7)} s`);
if (failed) {
  console.log(`\nnpm test failed in: ${failed}`);
  process.exitCode = 1;
}
