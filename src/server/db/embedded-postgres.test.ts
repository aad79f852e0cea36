// The embedded PostgreSQL server, started for real on temporary data folders: who can reach it, that it
// dies with its parent, what an operator reads when it cannot start, and that a crash is recovered.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbedded } from './client';
import { EmbeddedStartError, embeddedPaths, startEmbeddedPostgres } from './embedded-postgres';

const isRoot = process.getuid?.() === 0;
const folders: string[] = [];

/** A new data folder under a temporary one (mode 700: as root, the launcher lets its user through). */
function dataFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-embedded-'));
  folders.push(dir);
  return path.join(dir, 'data');
}

afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startFailure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(EmbeddedStartError);
    const message = (error as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    return message;
  }
  throw new Error('it started');
}

describe('the embedded PostgreSQL server', () => {
  it('is made on an empty folder and reachable only through its socket with the secret made there', async () => {
    const dataDir = dataFolder();
    const server = await startEmbeddedPostgres({ dataDir });
    try {
      const paths = embeddedPaths(dataDir);
      expect(fs.existsSync(path.join(paths.cluster, 'PG_VERSION'))).toBe(true);
      expect(fs.statSync(paths.secret).mode & 0o777).toBe(0o600);
      expect(fs.statSync(server.socketDir).mode & 0o777).toBe(0o700);
      const client = new pg.Client({ connectionString: server.url });
      client.on('error', () => {});
      await client.connect();
      const settings = await client.query<{ name: string; setting: string }>(
        `select name, setting from pg_settings
          where name in ('listen_addresses', 'fsync', 'full_page_writes', 'synchronous_commit', 'server_encoding')
         union all select 'ctype', datctype from pg_database where datname = current_database()
          order by name`,
      );
      expect(Object.fromEntries(settings.rows.map((row) => [row.name, row.setting]))).toEqual({
        ctype: 'C.UTF-8',
        fsync: 'on',
        full_page_writes: 'on',
        listen_addresses: '',
        server_encoding: 'UTF8',
        synchronous_commit: 'on',
      });
      await client.end();
      // Without the password: refused.
      const guess = new pg.Client({
        host: server.socketDir,
        user: 'mall',
        database: 'mall',
        password: 'password',
      });
      await expect(guess.connect()).rejects.toThrow(/password authentication failed/);
      // As root, it runs as an unprivileged user.
      const uid = Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1]);
      if (isRoot) {
        expect(server.runAs).toBe('nobody');
        expect(uid).not.toBe(0);
      } else expect(uid).toBe(process.getuid?.());
    } finally {
      await server.stop();
    }
    expect(alive(server.pid)).toBe(false);
    expect(fs.existsSync(path.join(embeddedPaths(dataDir).cluster, 'postmaster.pid'))).toBe(false);
  });

  it('refuses a second server on the same folder with one line naming the cause', async () => {
    const dataDir = dataFolder();
    const first = await startEmbeddedPostgres({ dataDir });
    try {
      const message = await startFailure(startEmbeddedPostgres({ dataDir }));
      expect(message).toMatch(/^Another server \(process \d+\) is already using the database in /);
    } finally {
      await first.stop();
    }
  }, 30_000);

  it('stops when the process that started it is killed with SIGKILL, and the next start recovers', async () => {
    const dataDir = dataFolder();
    // A process of its own that starts the server, says the server's pid, and waits to be killed.
    const script = `
      import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve(import.meta.dirname, 'embedded-postgres.ts'))};
      const server = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)} });
      process.stdout.write(server.pid + '\\n');
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      parent.once('exit', (code) => reject(new Error(`the parent ended (${code})`)));
    });
    expect(alive(pid)).toBe(true);
    parent.kill('SIGKILL');
    await until(() => !alive(pid), 'the orphaned server is gone');
    const again = await startEmbeddedPostgres({ dataDir });
    await again.stop();
  }, 60_000);

  it('refuses a folder whose settings lose commits on a power cut', async () => {
    const dataDir = dataFolder();
    const server = await startEmbeddedPostgres({ dataDir });
    await server.stop();
    fs.appendFileSync(path.join(embeddedPaths(dataDir).cluster, 'postgresql.auto.conf'), 'fsync = off\n');
    const message = await startFailure(startEmbeddedPostgres({ dataDir }));
    expect(message).toMatch(/has fsync = off: that loses acknowledged changes in a power cut/);
  }, 30_000);

  it('refuses it too when the setting is made for the mall’s database, not in the folder’s files', async () => {
    const dataDir = dataFolder();
    const server = await startEmbeddedPostgres({ dataDir });
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query('alter database mall set synchronous_commit = off');
    await client.end();
    await server.stop();
    const message = await startFailure(startEmbeddedPostgres({ dataDir }));
    expect(message).toMatch(/has synchronous_commit = off/);
  }, 30_000);

  it('says which file is missing when the secret is gone', async () => {
    const dataDir = dataFolder();
    const server = await startEmbeddedPostgres({ dataDir });
    await server.stop();
    fs.rmSync(embeddedPaths(dataDir).secret);
    const message = await startFailure(startEmbeddedPostgres({ dataDir }));
    expect(message).toMatch(/password file .*postgres\.secret is missing/);
  }, 30_000);

  it.runIf(isRoot)(
    'as root, opens a closed folder above the data to its user for going through, and says so',
    async () => {
      // As a checkout under /root (mode 700) would be.
      const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-closed-'));
      folders.push(closed);
      expect(fs.statSync(closed).mode & 0o777).toBe(0o700);
      const warnings: string[] = [];
      const log = { info() {}, warn: (_: object, message: string) => warnings.push(message) };
      const server = await startEmbeddedPostgres({ dataDir: path.join(closed, 'data'), log });
      await server.stop();
      expect(fs.statSync(closed).mode & 0o777).toBe(0o701);
      expect(warnings).toEqual([
        `gave others search permission (o+x) on ${closed} so that the database's user nobody can reach its files; run Super Mall as a normal user, or outside ${closed}, to avoid it`,
      ]);
    },
    30_000,
  );

  it('puts the socket in a private temporary folder when the data folder path is too long for one', async () => {
    const dataDir = path.join(dataFolder(), 'a-long-folder-name-'.repeat(5));
    const server = await startEmbeddedPostgres({ dataDir });
    try {
      expect(server.socketDir.startsWith(os.tmpdir())).toBe(true);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.end();
    } finally {
      await server.stop();
    }
    expect(fs.existsSync(server.socketDir)).toBe(false);
  }, 30_000);

  it('is restarted when it is killed while the server runs: queries fail meanwhile, then work again', async () => {
    const dataDir = dataFolder();
    const reasons: string[] = [];
    const database = await openEmbedded(dataDir, { onGiveUp: (reason) => reasons.push(reason) });
    try {
      await database.pool.query('create table kept (n int)');
      await database.pool.query('insert into kept values (1)');
      // A connection checked out in a transaction (as a write holds one) when the server goes: its
      // error must not end this process (an unhandled 'error' would fail this test file).
      const held = await database.pool.connect();
      try {
        await held.query('begin');
        const before = database.server?.pid as number;
        process.kill(before, 'SIGKILL');
        await until(() => !alive(before), 'the killed server is gone');
        // A pooled connection's backend may answer for a moment after its server died: the new server
        // is the one that must answer.
        await until(
          async () => {
            if (database.server?.pid === before) return false;
            try {
              return (await database.pool.query('select count(*)::int as n from kept')).rows[0].n === 1;
            } catch {
              return false;
            }
          },
          'the restarted server answers with the committed row',
          60_000,
        );
        // The held connection heard of its server's end while checked out, and the process lived on.
        await expect(held.query('select 1')).rejects.toThrow();
        expect(reasons).toEqual([]);
      } finally {
        held.release(true);
      }
    } finally {
      await database.close();
    }
  }, 90_000);
});
