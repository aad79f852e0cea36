// SIGTERM on the real server process: it stops accepting connections, finishes the requests in flight,
// closes the database (releasing the data directory) and exits 0 — and what it acknowledged is there.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

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

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      MALL_DATA_DIR: dataDir,
      MALL_DEMO_DATA: 'off',
      MALL_RATE_LIMIT: 'off',
      MALL_ADMIN_INVITE_CODE: 'shutdown-test-code',
      LOG_LEVEL: 'silent',
      DATABASE_URL: '',
    },
    stdio: 'ignore',
  });
  children.push(child);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy');
}

const register = (port: number, email: string) =>
  fetch(`http://127.0.0.1:${port}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'secret-password' }),
  });

describe('graceful shutdown', () => {
  it('finishes requests in flight, refuses new ones, closes the database and exits 0', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-shutdown-'));
    const port = await freePort();
    const server = await startServer(dataDir, port);
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));

    // Registrations take a while (password hashing): several are in flight when SIGTERM arrives.
    const emails = Array.from({ length: 6 }, (_, i) => `shutdown-${i}-${Date.now()}@example.com`);
    const inFlight = emails.map((email) => register(port, email));
    await new Promise((resolve) => setTimeout(resolve, 30));
    server.kill('SIGTERM');
    const statuses = await Promise.all(inFlight.map(async (response) => (await response).status));
    expect(statuses).toEqual(emails.map(() => 201));

    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    expect(await exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

    // Everything it acknowledged survived: sign in as each of them on a new server.
    const again = await startServer(dataDir, port);
    for (const email of emails) {
      const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'secret-password' }),
      });
      expect(response.status).toBe(200);
    }
    again.kill('SIGTERM');
  });
});
