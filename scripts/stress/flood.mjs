#!/usr/bin/env node
// Connection-flood harness: the built server, under a low file-descriptor limit, flooded with far more
// connections than it may open files — idle ones that never send a byte, and slow clients that send
// their headers and trickle the body — must stay up, never run out of descriptors, answer or cleanly
// refuse every other request while flooded, cut the flood's connections off, and serve normally after.
//
//   node scripts/stress/flood.mjs [--seconds 60] [--fd-limit 1024] [--idle N] [--slow 200]
//
// Needs the built server (npm run build); builds nothing. It
//  1. starts `dist/server/main.js` (a copy under .tmp/) under `ulimit -n --fd-limit`, on a fresh
//     embedded database with the demo mall (the PostgreSQL server it starts inherits the limit; its
//     files are its own processes' descriptors, not the server's: the pool's sockets are), rate limits
//     off, the connection cap left to its default (derived from the limit); registers a shopper;
//  2. for --seconds keeps the flood up, reopening what the server closes, as an attacker would:
//     --idle idle connections (default 4 × the limit) and --slow clients (a login POST announcing a
//     10,000-byte body, then a byte a second); meanwhile, every 250 ms, a shopper's request on a new
//     connection (the health check, or the categories with the shopper's session) and a sample of the
//     server's open descriptors;
//  3. drops the flood, then checks the server recovers: health 200, the categories 200, a registration
//     201 — within RECOVERY_MS; and that SIGTERM still stops it cleanly (exit 0).
// Fails (exit 1) when the server exits, its descriptors reach the limit, a shopper's request hangs past
// ANSWER_BOUND_MS or gets a 5xx other than 503 (overload), the idle connections it took are not cut off
// (408, our error body) once its headers timeout passes, or — on runs longer than its request timeout —
// no slow client was cut off; or when it does not recover. A refused connection (closed or reset as it
// arrives: the cap) is an expected answer while flooded.
//
// The server, its copy and the temp folders are removed at the end, on failure and on Ctrl-C.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import {
  HarnessError,
  installCleanup,
  isInterrupted,
  numberOption,
  parseOptions,
  printFailure,
  requireBuiltServer,
  Server,
  seconds,
  serverEnv,
  serverWorkspace,
  sleep,
  spawnLogged,
  startWatchdog,
  tail,
} from './lib.mjs';

const START_TIMEOUT_MS = 60_000;
/** A shopper's request while flooded must be answered or refused within this (generous: 2 shared cores). */
const ANSWER_BOUND_MS = 10_000;
const RECOVERY_MS = 15_000;
const TICK_MS = 250;
/** New flood connections per tick at most (the harness's own event loop has to keep up). */
const OPENS_PER_TICK = 400;
/** The server's timeouts (src/server/server-limits.ts DEFAULT_SERVER_TIMEOUTS), for what to expect. */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** How late the server may enforce a timeout (its check runs every second; the machine is shared). */
const TIMEOUT_SLACK_MS = 10_000;
/** By then the first idle connections must have been cut off: --seconds above 15 checks the timeouts. */
const FIRST_CUT_BY_MS = HEADERS_TIMEOUT_MS + 5_000;
const SLOW_BODY_BYTES = 10_000;

// ---------------------------------------------------------------------------------------------------
// Options

const USAGE = `Usage: node scripts/stress/flood.mjs [--seconds 60] [--fd-limit 1024] [--idle N] [--slow 200]

  --seconds N    how long the flood is kept up (default 60)
  --fd-limit N   the server's file-descriptor limit, ulimit -n (default 1024)
  --idle N       idle connections kept open (default 4 × --fd-limit)
  --slow N       slow-body clients kept open (default 200)`;

const options = parseOptions(USAGE, {
  seconds: { type: 'string', default: '60' },
  'fd-limit': { type: 'string', default: '1024' },
  idle: { type: 'string' },
  slow: { type: 'string', default: '200' },
});
const wholeNumber = (name, value, min, max) => numberOption(name, value, { min, max, usage: USAGE });
const floodSeconds = wholeNumber('seconds', options.seconds, 1, 24 * 3600);
const fdLimit = wholeNumber('fd-limit', options['fd-limit'], 256, 1_048_576);
const idleTarget = wholeNumber('idle', options.idle ?? String(4 * fdLimit), 0, 1_000_000);
const slowTarget = wholeNumber('slow', options.slow, 0, 100_000);

/** This process's own soft limit on open files (Node raised it to the hard one as it started). */
function ownFdLimit() {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((row) => row.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
  } catch {
    return Number.NaN;
  }
}

if (process.platform !== 'linux') {
  console.error('flood: needs Linux (/proc: the server’s descriptors are counted there).');
  process.exit(2);
}
const room = ownFdLimit();
if (!(room >= idleTarget + slowTarget + 512)) {
  console.error(
    `flood: this process may open ${room} files; ${idleTarget + slowTarget} flood connections need ${idleTarget + slowTarget + 512}: raise ulimit -n or lower --idle/--slow.`,
  );
  process.exit(2);
}

requireBuiltServer();

installCleanup();

// ---------------------------------------------------------------------------------------------------
// The server under `ulimit -n`

/** The built server, started by bash under `ulimit -n <fdLimit>` (exec: the pid is the server's). */
class LimitedServer extends Server {
  spawnProcess(env = this.env, logPath = this.logPath) {
    return spawnLogged(
      'bash',
      ['-c', `ulimit -n ${fdLimit} && exec "$0" "$1"`, process.execPath, this.mainJs],
      { env, logPath },
    );
  }
}

function openDescriptors(pid) {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Requests on connections of their own

/**
 * One request on a new connection. Resolves { status, body, setCookie } for an answer, { refused: code }
 * when the connection is closed or reset before one; { hang: true } after ANSWER_BOUND_MS.
 */
function request(port, method, urlPath, { body, cookie } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = {};
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (cookie) headers.cookie = cookie;
    let settled = false;
    const settle = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const outgoing = http.request(
      { host: '127.0.0.1', port, method, path: urlPath, headers, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('error', () => settle({ refused: 'cut off mid-answer' }));
        response.on('end', () =>
          settle({ status: response.statusCode ?? 0, body: text, setCookie: response.headers['set-cookie'] }),
        );
      },
    );
    const timer = setTimeout(() => {
      settle({ hang: true });
      outgoing.destroy();
    }, ANSWER_BOUND_MS);
    outgoing.on('error', (error) => settle({ refused: error.code ?? error.message }));
    outgoing.end(payload);
  });
}

const outcomeName = (outcome) =>
  outcome.hang ? 'hang' : outcome.refused ? `refused (${outcome.refused})` : `HTTP ${outcome.status}`;

// ---------------------------------------------------------------------------------------------------
// The flood

class Flood {
  constructor(port) {
    this.port = port;
    /** @type {Set<net.Socket>} */
    this.idle = new Set();
    /** @type {Set<net.Socket>} */
    this.slow = new Set();
    this.stats = {
      opened: 0,
      /** Closed by the server within a second, with no answer: refused by the cap. */
      refused: 0,
      /** Idle connections the server answered 408 (our body) and closed. */
      idleCut: 0,
      /** Slow clients the server answered 408 (our body) and closed. */
      slowCut: 0,
      /** Idle connections the server held for longer than its headers timeout allows. */
      idleOverdue: 0,
      /** A 408 whose body was not ours. */
      badBodies: 0,
      closedOther: 0,
    };
    this.trickle = setInterval(() => {
      for (const socket of this.slow) if (socket.writable) socket.write(' ');
    }, 1_000);
  }

  connection(kind) {
    const socket = net.connect(this.port, '127.0.0.1');
    const opened = Date.now();
    let received = '';
    this.stats.opened++;
    (kind === 'idle' ? this.idle : this.slow).add(socket);
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      (kind === 'idle' ? this.idle : this.slow).delete(socket);
      if (socket.destroyedByHarness) return;
      const heldMs = Date.now() - opened;
      if (received.startsWith('HTTP/1.1 408 ')) {
        const body = received.slice(received.indexOf('\r\n\r\n') + 4);
        try {
          if (JSON.parse(body).error?.code !== 'REQUEST_TIMEOUT') this.stats.badBodies++;
        } catch {
          this.stats.badBodies++;
        }
        if (kind === 'idle') this.stats.idleCut++;
        else this.stats.slowCut++;
      } else if (received === '' && heldMs < 1_000) this.stats.refused++;
      else this.stats.closedOther++;
    });
    if (kind === 'slow') {
      socket.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: mall\r\nContent-Type: application/json\r\nContent-Length: ${SLOW_BODY_BYTES}\r\n\r\n{`,
      );
    }
    socket.openedAt = opened;
  }

  /** Reopens what the server closed, up to the targets (a bounded number a tick). */
  topUp() {
    let budget = OPENS_PER_TICK;
    while (budget > 0 && this.slow.size < slowTarget) {
      this.connection('slow');
      budget--;
    }
    while (budget > 0 && this.idle.size < idleTarget) {
      this.connection('idle');
      budget--;
    }
    // An idle connection the server took must be gone within its headers timeout (plus slack).
    const overdue = Date.now() - HEADERS_TIMEOUT_MS - TIMEOUT_SLACK_MS;
    for (const socket of this.idle) {
      if (socket.openedAt < overdue && !socket.countedOverdue) {
        socket.countedOverdue = true;
        this.stats.idleOverdue++;
      }
    }
  }

  stop() {
    clearInterval(this.trickle);
    for (const socket of [...this.idle, ...this.slow]) {
      socket.destroyedByHarness = true;
      socket.destroy();
    }
    this.idle.clear();
    this.slow.clear();
  }
}

// ---------------------------------------------------------------------------------------------------
// The run

async function run() {
  const workspace = serverWorkspace('super-mall-flood-', 'flood-');
  const { logPath } = workspace;
  const env = await serverEnv({
    TMPDIR: workspace.serverTmp,
    MALL_DATA_DIR: path.join(workspace.workDir, 'data'),
    MALL_DEMO_DATA: 'on',
    LOG_LEVEL: 'info',
    MALL_MAX_CONNECTIONS: undefined,
  });
  const server = new LimitedServer({ label: 'flood', mainJs: workspace.mainJs, env, logPath });
  let flood;
  const problems = [];
  try {
    const startMs = await server.start(START_TIMEOUT_MS);
    const port = server.port;
    const capLine = /"maxConnections":(\d+)/.exec(fs.readFileSync(logPath, 'utf8'));
    const cap = capLine ? Number(capLine[1]) : undefined;
    const baseline = openDescriptors(server.pid);
    console.log(
      `flood: server ready in ${seconds(startMs)} under ulimit -n ${fdLimit}: ${baseline} descriptors open, ` +
        `connection cap ${cap ?? 'not logged'}`,
    );
    if (cap === undefined || cap >= fdLimit)
      problems.push(`the connection cap (${cap}) is not below the limit`);

    const shopper = await request(port, 'POST', '/api/auth/register', {
      body: { email: `flood-${Date.now()}@example.com`, password: 'flood-password', role: 'user' },
    });
    if (shopper.status !== 201) throw new HarnessError(`registering a shopper: ${outcomeName(shopper)}`);
    const cookie = shopper.setCookie?.[0]?.split(';')[0];

    // The flood, with a shopper's request on a new connection every tick.
    flood = new Flood(port);
    const outcomes = new Map();
    let peakDescriptors = baseline ?? 0;
    let tick = 0;
    const probes = [];
    const floodStarted = performance.now();
    while (performance.now() - floodStarted < floodSeconds * 1000) {
      if (isInterrupted()) throw new HarnessError('interrupted');
      if (!server.isRunning()) {
        problems.push('the server exited during the flood');
        break;
      }
      flood.topUp();
      peakDescriptors = Math.max(peakDescriptors, openDescriptors(server.pid) ?? 0);
      const probe = tick++ % 2 === 0 ? ['/api/health', {}] : ['/api/categories', { cookie }];
      probes.push(
        request(port, 'GET', probe[0], probe[1]).then((outcome) => {
          const name = outcomeName(outcome);
          outcomes.set(name, (outcomes.get(name) ?? 0) + 1);
        }),
      );
      await sleep(TICK_MS);
    }
    await Promise.all(probes);
    const floodMs = performance.now() - floodStarted;
    const stillHeld = flood.idle.size + flood.slow.size;
    flood.stop();
    const stats = flood.stats;

    const answered = [...outcomes].filter(([name]) => name.startsWith('HTTP')).reduce((n, [, c]) => n + c, 0);
    console.log(
      `flood: ${seconds(floodMs)} of flood: ${stats.opened} connections opened (${idleTarget} idle + ` +
        `${slowTarget} slow kept up), ${stats.refused} refused as they arrived, ${stats.idleCut} idle and ` +
        `${stats.slowCut} slow cut off with 408, ${stats.closedOther} closed otherwise, ${stillHeld} open at the end; ` +
        `server descriptors peak ${peakDescriptors} of ${fdLimit}`,
    );
    console.log(
      `flood: shoppers' requests while flooded: ${[...outcomes].map(([name, count]) => `${name} × ${count}`).join(', ')}`,
    );

    if (!server.isRunning()) problems.push('the server is not running after the flood');
    if (peakDescriptors >= fdLimit)
      problems.push(`the server's descriptors reached the limit (${peakDescriptors})`);
    for (const [name, count] of outcomes) {
      if (name === 'hang') problems.push(`${count} shopper requests hung past ${seconds(ANSWER_BOUND_MS)}`);
      const status = Number(/^HTTP (\d+)/.exec(name)?.[1]);
      if (status >= 500 && status !== 503) problems.push(`${count} shopper requests answered ${name}`);
    }
    if (stats.idleOverdue > 0)
      problems.push(`${stats.idleOverdue} idle connections held past the headers timeout (+ slack)`);
    if (stats.badBodies > 0) problems.push(`${stats.badBodies} 408 answers not in our error body`);
    if (floodMs > FIRST_CUT_BY_MS && stats.idleCut === 0)
      problems.push('no idle connection was cut off (408) in all that time');
    if (floodMs > REQUEST_TIMEOUT_MS + TIMEOUT_SLACK_MS && stats.slowCut === 0)
      problems.push('no slow client was cut off (408) in all that time');
    if (answered === 0)
      console.log('flood: (every shopper request was refused while flooded: the cap was full)');

    if (!server.isRunning()) return problems;
    // Recovery: the flood is gone.
    const recoveryStarted = performance.now();
    const recovered = {};
    while (performance.now() - recoveryStarted < RECOVERY_MS && !(recovered.health && recovered.read)) {
      recovered.health ||= (await request(port, 'GET', '/api/health')).status === 200;
      recovered.read ||= (await request(port, 'GET', '/api/categories', { cookie })).status === 200;
      if (!(recovered.health && recovered.read)) await sleep(200);
    }
    const write = await request(port, 'POST', '/api/auth/register', {
      body: { email: `flood-after-${Date.now()}@example.com`, password: 'flood-password', role: 'user' },
    });
    const recoveryMs = performance.now() - recoveryStarted;
    if (!recovered.health) problems.push(`/api/health did not answer 200 within ${seconds(RECOVERY_MS)}`);
    if (!recovered.read) problems.push(`/api/categories did not answer 200 within ${seconds(RECOVERY_MS)}`);
    if (write.status !== 201) problems.push(`a registration after the flood: ${outcomeName(write)}`);
    console.log(
      `flood: after the flood: health ${recovered.health ? 200 : 'failing'}, categories ${recovered.read ? 200 : 'failing'}, ` +
        `registration ${outcomeName(write)} (${seconds(recoveryMs)})`,
    );

    const code = await server.stop();
    if (code !== 0) problems.push(`SIGTERM after the flood: exit ${code ?? 'only SIGKILL stopped it'}`);
  } finally {
    flood?.stop();
    if (server.isRunning()) await server.kill();
    if (problems.length > 0) console.error(`flood: the server's output:\n${tail(logPath, 30)}`);
    workspace.remove();
  }
  return problems;
}

const watchdog = startWatchdog(
  'flood',
  START_TIMEOUT_MS + floodSeconds * 1000 + 2 * ANSWER_BOUND_MS + RECOVERY_MS + 60_000,
);

console.log(
  `flood: ${floodSeconds} s of ${idleTarget} idle + ${slowTarget} slow connections against the server under ` +
    `ulimit -n ${fdLimit}, Node ${process.version}`,
);
let exitCode = 0;
try {
  const problems = await run();
  for (const problem of problems) console.error(`flood: FAILED: ${problem}`);
  if (problems.length > 0) exitCode = 1;
  else console.log('flood: the server stayed up, never ran out of descriptors, and recovered');
} catch (error) {
  printFailure('flood: FAILED: ', error);
  exitCode = 1;
}
clearTimeout(watchdog);
process.exit(exitCode);
