// A flood of connections on the real server process, under a low file-descriptor limit: several times
// more idle connections than the process may open files, plus clients that trickle a request body. The
// server must stay up, never run out of descriptors (the connection cap, derived from the limit, turns
// the excess away as it arrives), answer or cleanly refuse every new request while flooded, cut the idle
// connections off (408 in our error body) once the headers timeout passes, and serve normally after.
// (Before the cap, @fastify/under-pressure's timer threw EMFILE, uncaught, and the process exited.)
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SERVER_TIMEOUTS,
  MIN_DEFAULT_CONNECTIONS,
  parseOpenFilesLimit,
  RESERVED_DESCRIPTORS,
} from './server-limits';

/** The server's descriptor limit (soft and hard: Node cannot raise it). */
const FD_LIMIT = 512;
const IDLE_CONNECTIONS = 4 * FD_LIMIT;
const SLOW_CLIENTS = 100;
/** A new request while flooded must be answered or refused within this (generous: a loaded CI machine). */
const ANSWER_BOUND_MS = 10_000;

const children: ChildProcess[] = [];
const sockets: net.Socket[] = [];
const timers: NodeJS.Timeout[] = [];
let dataDir: string | undefined;
afterEach(() => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const child of children.splice(0)) child.kill('SIGKILL');
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Started {
  child: ChildProcess;
  /** The cap the server logged at start-up. */
  maxConnections: number;
  output: () => string;
  exited: () => string | null;
}

/** The server from its sources, under `ulimit -n FD_LIMIT`, on a new embedded data directory. */
async function startServer(port: number): Promise<Started> {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-flood-'));
  const child = spawn(
    'bash',
    ['-c', `ulimit -n ${FD_LIMIT} && exec "$0" --import tsx src/server/main.ts`, process.execPath],
    {
      env: {
        ...process.env,
        PORT: String(port),
        MALL_DATA_DIR: dataDir,
        MALL_DEMO_DATA: 'off',
        MALL_RATE_LIMIT: 'off',
        MALL_MAX_CONNECTIONS: '',
        LOG_LEVEL: 'info',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  let exit: string | null = null;
  child.once('exit', (code, signal) => {
    exit = `exit code ${code}, signal ${signal}`;
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (exit) throw new Error(`the server exited while starting (${exit}):\n${output}`);
    if (
      output.includes('connections capped') &&
      (await get(port, '/api/health').catch(() => null))?.status === 200
    ) {
      const capped = /"maxConnections":(\d+)/.exec(output);
      return { child, maxConnections: Number(capped?.[1]), output: () => output, exited: () => exit };
    }
    await sleep(100);
  }
  throw new Error(`the server did not become healthy:\n${output}`);
}

interface Answer {
  status: number;
  body: string;
}

/** One request on a connection of its own; rejects on a connection error or after ANSWER_BOUND_MS. */
function get(
  port: number,
  urlPath: string,
  options: { method?: string; body?: unknown; cookie?: string } = {},
): Promise<Answer & { setCookie?: string[] }> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(options.cookie ? { cookie: options.cookie } : {}),
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('error', reject);
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body, setCookie: response.headers['set-cookie'] }),
        );
      },
    );
    request.setTimeout(ANSWER_BOUND_MS, () => request.destroy(new Error('HANG')));
    request.on('error', reject);
    request.end(payload);
  });
}

/** An idle connection: sends nothing, reads what comes, counts as closed once the server closes it. */
function idleConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  const state = { received: '', closed: false };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    state.received += chunk;
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    state.closed = true;
  });
  const settled = new Promise<void>((resolve) => {
    socket.once('connect', () => resolve());
    socket.once('close', () => resolve());
    setTimeout(resolve, ANSWER_BOUND_MS).unref();
  });
  return { socket, state, settled };
}

describe.skipIf(process.platform !== 'linux')('a flood of connections', () => {
  it('never takes the server down: the excess is refused, idle ones are cut off, and it serves after', async () => {
    const ownLimit = parseOpenFilesLimit(fs.readFileSync('/proc/self/limits', 'utf8')) ?? 0;
    if (ownLimit < IDLE_CONNECTIONS + SLOW_CLIENTS + 512) {
      throw new Error(`this test opens ${IDLE_CONNECTIONS + SLOW_CLIENTS} connections: raise ulimit -n`);
    }
    const port = await freePort();
    const server = await startServer(port);
    const pid = server.child.pid ?? 0;
    const alive = () => server.exited() === null;
    // The default cap, derived from the limit: below it by at least the reserve, not the fallback.
    expect(server.maxConnections).toBeGreaterThanOrEqual(MIN_DEFAULT_CONNECTIONS);
    expect(server.maxConnections).toBeLessThanOrEqual(FD_LIMIT - RESERVED_DESCRIPTORS);

    // The server's open descriptors, sampled throughout: they must never reach the limit.
    let peakDescriptors = 0;
    timers.push(
      setInterval(() => {
        try {
          peakDescriptors = Math.max(peakDescriptors, fs.readdirSync(`/proc/${pid}/fd`).length);
        } catch {
          // Gone: the liveness checks report it.
        }
      }, 50),
    );

    // Clients that send their headers, then trickle the body a byte a second.
    const slow: net.Socket[] = [];
    for (let i = 0; i < SLOW_CLIENTS; i++) {
      const { socket, settled } = idleConnection(port);
      socket.write(
        'POST /api/auth/login HTTP/1.1\r\nHost: mall\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{',
      );
      slow.push(socket);
      if (i % 20 === 19) await settled;
    }
    timers.push(
      setInterval(() => {
        for (const socket of slow) if (socket.writable) socket.write(' ');
      }, 1_000),
    );

    // Several times more idle connections than the server may open files.
    const floodStarted = Date.now();
    const idle: ReturnType<typeof idleConnection>[] = [];
    for (let i = 0; i < IDLE_CONNECTIONS; i++) {
      idle.push(idleConnection(port));
      if (i % 64 === 63) await Promise.all(idle.slice(-64).map((connection) => connection.settled));
    }
    await Promise.all(idle.map((connection) => connection.settled));

    // While flooded: every new request is answered or cleanly refused (connection closed or reset),
    // never left hanging; the process stays up.
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      expect(alive(), server.output()).toBe(true);
      try {
        outcomes.push(`HTTP ${(await get(port, '/api/health')).status}`);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        outcomes.push(code);
      }
      await sleep(300);
    }
    for (const outcome of outcomes) expect(outcome).toMatch(/^(HTTP \d{3}|ECONNRESET|EPIPE|socket hang up)$/);

    // The idle connections the server took are cut off once the headers timeout passes (408 in our
    // error body); the rest were refused as they arrived. Every one ends without the client closing it.
    const cutOffBy = floodStarted + DEFAULT_SERVER_TIMEOUTS.headersMs + 20_000;
    while (Date.now() < cutOffBy && idle.some((connection) => !connection.state.closed)) await sleep(200);
    expect(idle.filter((connection) => !connection.state.closed)).toHaveLength(0);
    const timedOut = idle.filter((connection) => connection.state.received.startsWith('HTTP/1.1 408 '));
    expect(timedOut.length).toBeGreaterThan(0);
    const answer = timedOut[0]?.state.received ?? '';
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { code: 'REQUEST_TIMEOUT', message: expect.any(String) },
    });
    expect(alive(), server.output()).toBe(true);
    console.log(
      JSON.stringify({
        cap: server.maxConnections,
        outcomes,
        peakDescriptors,
        timedOut: timedOut.length,
        refusedOrOther: idle.length - timedOut.length,
        elapsed: Date.now() - floodStarted,
      }),
    );
    expect(peakDescriptors).toBeGreaterThan(0);
    expect(peakDescriptors).toBeLessThan(FD_LIMIT);

    // The flood goes away: the server serves normally.
    for (const timer of timers.splice(0)) clearInterval(timer);
    for (const socket of sockets.splice(0)) socket.destroy();
    let health: Answer | undefined;
    for (let tries = 0; tries < 50 && health?.status !== 200; tries++) {
      health = await get(port, '/api/health').catch(() => undefined);
      if (health?.status !== 200) await sleep(200);
    }
    expect(health).toEqual(expect.objectContaining({ status: 200 }));
    const registered = await get(port, '/api/auth/register', {
      method: 'POST',
      body: { email: `flood-${Date.now()}@example.com`, password: 'secret-password', role: 'user' },
    });
    expect(registered.status).toBe(201);
    const cookie = registered.setCookie?.[0]?.split(';')[0];
    expect((await get(port, '/api/categories', { cookie })).status).toBe(200);
    expect(alive(), server.output()).toBe(true);
  }, 180_000);
});
