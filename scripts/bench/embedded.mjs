#!/usr/bin/env node
// Bench: the embedded database's start times and idle memory (the PostgreSQL server the app starts on
// MALL_DATA_DIR, src/server/db/embedded-postgres.ts).
//
//   npm run build && node scripts/bench/embedded.mjs [--runs 3] [--later-runs 5] [--settle 15]
//
// Starts the built server (dist/server/main.js, a copy under .tmp/) with no DATABASE_URL and measures,
// from spawn to the first 200 on /api/health:
//  1. the first start on an empty MALL_DATA_DIR with MALL_DEMO_DATA=off (initdb, the server, the
//     migrations), --runs times, each on a new folder;
//  2. the first start on an empty MALL_DATA_DIR with the demo mall and its pictures, --runs times;
//  3. later starts on an existing MALL_DATA_DIR (the demo mall's, stopped with SIGTERM each time),
//     --later-runs times.
// And the idle memory with the demo mall loaded: --settle seconds after a start (the first start with
// the demo mall, and a later start), the sum of the proportional set size (PSS, /proc/<pid>/smaps_rollup)
// of the server process and every process under it — the import check's process and all of
// PostgreSQL's (postmaster, backends, checkpointer…): they share memory (shared_buffers, the binaries),
// which RSS would count once per process and PSS divides among them.
// Prints a line per measurement and, last, one JSON line with the figures (scripts/bench/run.mjs reads
// it for bench/embedded-postgres.md). Targets: idle ≤ 250 MB; first start ≤ 5 s, with the demo mall ≤
// 10 s, later starts ≤ 2 s (medians). Exits 0 whatever the figures (a bench, not a test); 1 on a failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../pg-cluster.mjs';
import {
  clusterOf,
  commandLine,
  descendantsOf,
  distServer,
  installCleanup,
  makeTempDir,
  percentile,
  postgresProcesses,
  postmasterPid,
  pssMb,
  removeTempDir,
  repoRoot,
  Server,
  seconds,
  sleep,
} from '../stress/lib.mjs';

const EMBEDDED_TARGETS = {
  idlePssMb: 250,
  firstStartMs: 5_000,
  demoStartMs: 10_000,
  laterStartMs: 2_000,
};

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'later-runs': { type: 'string', default: '5' },
    settle: { type: 'string', default: '15' },
  },
});
const runs = Number(options.runs);
const laterRuns = Number(options['later-runs']);
const settleS = Number(options.settle);
for (const [name, value] of [
  ['--runs', runs],
  ['--later-runs', laterRuns],
  ['--settle', settleS],
]) {
  if (!Number.isFinite(value) || value < 1) {
    console.error(`${name} must be a number ≥ 1`);
    process.exit(2);
  }
}
installCleanup();

const START_TIMEOUT_MS = 120_000;
const mainJs = path.join(distServer, 'main.js');
if (!fs.existsSync(mainJs)) {
  console.error('dist/server/main.js is missing: run "npm run build" first.');
  process.exit(1);
}
const workDir = makeTempDir(os.tmpdir(), 'super-mall-bench-embedded-');
const serverCopy = makeTempDir(path.join(repoRoot, '.tmp'), 'bench-embedded-');
fs.cpSync(distServer, path.join(serverCopy, 'server'), { recursive: true });
fs.cpSync(path.join(repoRoot, 'dist', 'client'), path.join(serverCopy, 'client'), { recursive: true });
const serverTmp = path.join(workDir, 'tmp');
fs.mkdirSync(serverTmp);

let serial = 0;
async function newServer(dataDir, demo) {
  serial += 1;
  const env = {
    ...process.env,
    TMPDIR: serverTmp,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    MALL_DATA_DIR: dataDir,
    MALL_DEMO_DATA: demo ? 'on' : 'off',
    MALL_RATE_LIMIT: 'off',
    LOG_LEVEL: 'warn',
    // as `npm start` runs the server (README, "Running at scale").
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || '2',
  };
  delete env.DATABASE_URL;
  return new Server({
    label: `embedded-${serial}`,
    mainJs: path.join(serverCopy, 'server', 'main.js'),
    env,
    logPath: path.join(workDir, `server-${serial}.log`),
  });
}

/**
 * Stops the server (SIGTERM) once its start-up has ended ("Super Mall is ready", printed just after the
 * first 200 on /api/health), and checks its PostgreSQL went with it.
 */
async function stop(server) {
  if (!(await server.untilReady())) throw new Error(`${server.label} never said it was ready`);
  const code = await server.stop();
  const left = postgresProcesses(clusterOf(server.env.MALL_DATA_DIR));
  if (code !== 0 || left.length > 0)
    throw new Error(
      `the server's SIGTERM stop ended with ${code ?? 'a SIGKILL'}, ${left.length} PostgreSQL processes left`,
    );
}

/**
 * The memory of the server and everything under it, by process kind, in MB of PSS: after `settleS`
 * seconds idle, the median of 5 samples a second apart.
 */
async function idleMemory(server) {
  await sleep(settleS * 1000);
  const samples = [];
  for (let i = 0; i < 5; i++) {
    const postmaster = postmasterPid(clusterOf(server.env.MALL_DATA_DIR));
    const sample = { server: pssMb(server.pid), check: 0, postgres: 0, postgresProcesses: 0, other: 0 };
    for (const pid of descendantsOf(server.pid)) {
      const mb = pssMb(pid);
      const args = commandLine(pid) ?? '';
      if (pid === postmaster || args.startsWith('postgres:')) {
        sample.postgres += mb;
        sample.postgresProcesses += 1;
      } else if (args.includes('import-check')) sample.check += mb;
      else sample.other += mb;
    }
    sample.total = sample.server + sample.check + sample.postgres + sample.other;
    samples.push(sample);
    await sleep(1_000);
  }
  samples.sort((a, b) => a.total - b.total);
  const middle = samples[Math.floor(samples.length / 2)];
  const round = (value) => Math.round(value * 10) / 10;
  return Object.fromEntries(Object.entries(middle).map(([key, value]) => [key, round(value)]));
}

const median = (values) => percentile(values, 50);
const figures = { runs, laterRuns, settleS, firstStartMs: [], demoStartMs: [], laterStartMs: [] };
let exitCode = 0;
try {
  console.log(
    `bench:embedded on ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' / ')}, Node ${process.version}`,
  );
  // 1. First start, no demo mall.
  for (let i = 0; i < runs; i++) {
    const server = await newServer(path.join(workDir, `empty-${i}`), false);
    figures.firstStartMs.push(await server.start(START_TIMEOUT_MS));
    await stop(server);
    removeTempDir(path.join(workDir, `empty-${i}`));
    console.log(`first start, MALL_DEMO_DATA=off: ${seconds(figures.firstStartMs.at(-1))}`);
  }
  // 2. First start with the demo mall and its pictures; the idle memory after the first of them.
  const demoDir = path.join(workDir, 'demo');
  for (let i = 0; i < runs; i++) {
    const dir = i === 0 ? demoDir : path.join(workDir, `demo-${i}`);
    const server = await newServer(dir, true);
    figures.demoStartMs.push(await server.start(START_TIMEOUT_MS));
    console.log(`first start with the demo mall: ${seconds(figures.demoStartMs.at(-1))}`);
    if (i === 0) {
      figures.idleAfterDemoStart = await idleMemory(server);
      console.log(`  idle ${settleS} s later: ${JSON.stringify(figures.idleAfterDemoStart)} MB (PSS)`);
    }
    await stop(server);
    if (i > 0) removeTempDir(dir);
  }
  // 3. Later starts on the demo mall's folder; the idle memory after the last.
  for (let i = 0; i < laterRuns; i++) {
    const server = await newServer(demoDir, true);
    figures.laterStartMs.push(await server.start(START_TIMEOUT_MS));
    console.log(`later start on the existing folder: ${seconds(figures.laterStartMs.at(-1))}`);
    if (i === laterRuns - 1) {
      figures.idleAfterLaterStart = await idleMemory(server);
      console.log(`  idle ${settleS} s later: ${JSON.stringify(figures.idleAfterLaterStart)} MB (PSS)`);
    }
    await stop(server);
  }
  figures.firstStartMedianMs = Math.round(median(figures.firstStartMs));
  figures.demoStartMedianMs = Math.round(median(figures.demoStartMs));
  figures.laterStartMedianMs = Math.round(median(figures.laterStartMs));
  figures.idlePssMb = Math.max(figures.idleAfterDemoStart.total, figures.idleAfterLaterStart.total);
  figures.load = os.loadavg();
  figures.targets = EMBEDDED_TARGETS;
  console.log(
    `bench:embedded: first start ${seconds(figures.firstStartMedianMs)} (≤ ${seconds(EMBEDDED_TARGETS.firstStartMs)}), ` +
      `with the demo mall ${seconds(figures.demoStartMedianMs)} (≤ ${seconds(EMBEDDED_TARGETS.demoStartMs)}), ` +
      `later ${seconds(figures.laterStartMedianMs)} (≤ ${seconds(EMBEDDED_TARGETS.laterStartMs)}); ` +
      `idle ${figures.idlePssMb} MB PSS (≤ ${EMBEDDED_TARGETS.idlePssMb} MB)`,
  );
  console.log(JSON.stringify(figures));
} catch (error) {
  console.error(`bench:embedded failed: ${error instanceof Error ? error.message : error}`);
  exitCode = 1;
} finally {
  removeTempDir(serverCopy);
  removeTempDir(workDir);
}
process.exit(exitCode);
