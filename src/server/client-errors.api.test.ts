// What Node's HTTP server refuses before a request reaches Fastify — headers too large, a request that
// never finishes arriving, bytes that are not HTTP — comes back over the real socket as a whole HTTP
// response in our one error body, and the connection is closed: no client holds a connection for ever.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SERVER_TIMEOUTS } from './server-limits';
import { createTestApp, registerAs, type TestApp } from './test/harness';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Generous: a loaded CI machine may be slow, but a hang is a failure. */
const ANSWER_BOUND_MS = 10_000;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the connection to its close. */
  closedAfterMs: number;
}

/** A raw connection: what the test writes goes out as is; `answer` is everything read until the close. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const opened = Date.now();
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was still open after ${ANSWER_BOUND_MS} ms`));
    }, ANSWER_BOUND_MS);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = (split === -1 ? text : text.slice(0, split)).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0),
        headers,
        body: split === -1 ? '' : text.slice(split + 4),
        closedAfterMs: Date.now() - opened,
      });
    });
  });
  return { socket, answer };
}

/** A whole HTTP response in our error body, and the connection closed after it. */
function expectErrorAnswer(answer: RawAnswer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers.connection).toBe('close');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
  expect(body.error.message.length).toBeGreaterThan(0);
}

async function listen(app: TestApp['app']): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as net.AddressInfo).port;
}

describe('client errors over a real socket', () => {
  it('the server has the production timeouts and a connection cap by default', async () => {
    t = await createTestApp();
    const server = t.app.server;
    expect(server.requestTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.requestMs);
    expect(server.headersTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.headersMs);
    expect(server.keepAliveTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.keepAliveMs);
    expect(server.timeout).toBe(DEFAULT_SERVER_TIMEOUTS.idleSocketMs);
    // Node's own property (not in @types/node 20): how often it enforces the two timeouts above.
    const checkEvery = (server as typeof server & { connectionsCheckingInterval?: number })
      .connectionsCheckingInterval;
    expect(checkEvery).toBe(DEFAULT_SERVER_TIMEOUTS.checkIntervalMs);
    expect(server.requestTimeout).toBeGreaterThan(0);
    expect(server.maxConnections).toBeGreaterThanOrEqual(16);
    expect(server.maxConnections).toBeLessThanOrEqual(10_000);
  });

  it("survives the server's own 'error' event (a failure to accept a connection)", async () => {
    t = await createTestApp();
    const port = await listen(t.app);
    const accept = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', syscall: 'accept' });
    // Without a listener, emit('error') throws: from libuv's accept callback, that ends the process.
    expect(() => t?.app.server.emit('error', accept)).not.toThrow();
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  });

  it('answers headers that are too large with 431 in our error body', async () => {
    t = await createTestApp();
    const port = await listen(t.app);
    const { socket, answer } = connect(port);
    socket.write(`GET /api/health HTTP/1.1\r\nHost: mall\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectErrorAnswer(await answer, 431, 'HEADERS_TOO_LARGE');
    // The server still serves.
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  });

  it('answers a request whose headers never finish with 408 in our error body', async () => {
    t = await createTestApp({ serverTimeouts: { headersMs: 300, requestMs: 1_000, checkIntervalMs: 100 } });
    const port = await listen(t.app);
    const { socket, answer } = connect(port);
    socket.write('GET /api/health HTTP/1.1\r\nHost: mall\r\n');
    const result = await answer;
    expectErrorAnswer(result, 408, 'REQUEST_TIMEOUT');
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(250);
  });

  it('answers a connection that never sends a byte with 408 in our error body', async () => {
    t = await createTestApp({ serverTimeouts: { headersMs: 300, requestMs: 1_000, checkIntervalMs: 100 } });
    const { answer } = connect(await listen(t.app));
    expectErrorAnswer(await answer, 408, 'REQUEST_TIMEOUT');
  });

  it('cuts off a trickled body with 408 in our error body', async () => {
    t = await createTestApp({ serverTimeouts: { headersMs: 300, requestMs: 1_000, checkIntervalMs: 100 } });
    const port = await listen(t.app);
    const { socket, answer } = connect(port);
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: mall\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":',
    );
    // A byte every 100 ms: the body would take 100 s to arrive.
    const trickle = setInterval(() => {
      if (socket.writable) socket.write(' ');
    }, 100);
    try {
      const result = await answer;
      expectErrorAnswer(result, 408, 'REQUEST_TIMEOUT');
      expect(result.closedAfterMs).toBeGreaterThanOrEqual(900);
    } finally {
      clearInterval(trickle);
    }
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  });

  it('answers bytes that are not HTTP with 400 in our error body', async () => {
    t = await createTestApp();
    const { socket, answer } = connect(await listen(t.app));
    socket.write('HELLO THERE\r\n\r\n');
    expectErrorAnswer(await answer, 400, 'BAD_REQUEST');
  });

  it('a client that goes away half-way through its body is no failure of the server: nothing stored, nothing logged as an error', async () => {
    const logged: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    t = await createTestApp({ logger });
    const admin = await registerAs(t.app, 'admin');
    const port = await listen(t.app);
    const csv = `shop,name,price\n${'Shop,Product,1.00\n'.repeat(20_000)}`;
    const cutOff = [
      // A public JSON route, and the admin's import upload (a body read as bytes).
      `POST /api/auth/login HTTP/1.1\r\nHost: mall\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":`,
      `POST /api/imports?kind=products&fileName=cut.csv HTTP/1.1\r\nHost: mall\r\nCookie: ${admin.headers.cookie}\r\nContent-Type: text/csv\r\nContent-Length: ${csv.length}\r\n\r\n${csv.slice(0, csv.length / 2)}`,
    ];
    // The server's line about the request: the client went away, or (the failure) an error.
    const settled = () =>
      logged.filter((entry) => entry.msg.includes('went away') || entry.level >= 50).length;
    for (const request of cutOff) {
      const before = settled();
      const { socket, answer } = connect(port);
      socket.write(request, () => socket.end());
      await answer;
      // The server meets the close on its next read: wait for its line, 5 s at most.
      for (let waited = 0; settled() === before && waited < 5_000; waited += 20) await sleep(20);
    }
    expect(logged.filter((entry) => entry.level >= 50)).toEqual([]);
    expect(logged.filter((entry) => entry.msg.includes('went away'))).toHaveLength(2);
    const runs = await t.app.inject({ method: 'GET', url: '/api/imports', headers: admin.headers });
    expect(runs.json()).toEqual({ items: [] });
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  });
});
