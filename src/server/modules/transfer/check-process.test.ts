import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import type { HttpError } from '../../errors';
import { CHECK_NICE, checkInChild, endWaitingCheckProcesses, warmCheckProcess } from './check-process';

const RUN = '11111111-1111-4111-8111-111111111111';

/** A database stand-in: the file's text for the worker's chunk reads, `answer` for every other query. */
function fakeDb(file: string, answer: (text: string) => Promise<unknown[]> = async () => []) {
  const staged: unknown[][] = [];
  const stagedBytes: Buffer[] = [];
  const db = {
    $client: {
      query: async (config: { text: string; values?: unknown[] } | string, values?: unknown[]) => {
        const text = typeof config === 'string' ? config : config.text;
        const params = typeof config === 'string' ? values : config.values;
        if (text.includes('substr(content')) {
          const [, from, length] = params as [string, number, number];
          return { rows: [{ part: file.slice(from - 1, from - 1 + length) }] };
        }
        if (text.includes('insert into import_staged_rows')) {
          // A batch is sent as bytes (one parameter): kept to count them.
          for (const param of params as unknown[]) if (Buffer.isBuffer(param)) stagedBytes.push(param);
          staged.push((params as unknown[]).map((param) => (Buffer.isBuffer(param) ? String(param) : param)));
          return { rows: [] };
        }
        return { rows: await answer(text) };
      },
    },
  } as unknown as Db;
  return { db, staged, stagedBytes };
}

describe('the import check off the server’s thread', () => {
  it('reads the file through the server’s database and answers the preview', async () => {
    const file = 'shop,name,price\nNo such shop,Lamp,12.50\n';
    const { db } = fakeDb(file);
    const progress: number[] = [];
    const check = checkInChild(db, { runId: RUN, kind: 'products', stage: false }, (rows) =>
      progress.push(rows),
    );
    const result = await check.result;
    expect(result.counts).toEqual({ created: 0, updated: 0, unchanged: 0, refused: 1 });
    expect(result.refused[0]).toEqual({
      line: 2,
      errors: [{ column: 'shop', message: 'Unknown shop "No such shop"' }],
    });
    expect(progress.at(-1)).toBe(1);
  });

  it('stages the rows of a confirmed run through the server, a batch per statement', async () => {
    const shop = { id: '22222222-2222-4222-8222-222222222222', name: 'Lamps', code: 'L1' };
    const rows = Array.from({ length: 1200 }, (_, i) => `L1,P${i},Lamp ${i},${i + 1}.50`);
    const { db, staged, stagedBytes } = fakeDb(
      `shop_code,code,name,price\n${rows.join('\n')}\n`,
      async (text) =>
        text.includes('"external_code"') && text.includes('from "shops"')
          ? [[shop.id, shop.name, shop.code]]
          : [],
    );
    const result = await checkInChild(db, { runId: RUN, kind: 'products', stage: true }).result;
    expect(result.counts.created).toBe(1200);
    expect(stagedBytes).toHaveLength(3);
    const batches = staged.map(
      (params) => JSON.parse(String(params[1])) as { seq: number; action: string }[],
    );
    expect(batches.map((batch) => batch.length)).toEqual([500, 500, 200]);
    expect(batches[2]?.at(-1)).toMatchObject({ seq: 1199, action: 'create' });
    expect(staged[0]?.[0]).toBe(RUN);
  });

  it('fails with the file’s problem, as the form would say it', async () => {
    const { db } = fakeDb('');
    await expect(
      checkInChild(db, { runId: RUN, kind: 'products', stage: false }).result,
    ).rejects.toMatchObject({ statusCode: 400, message: 'The file is empty' } satisfies Partial<HttpError>);
  });

  it('fails, never hangs, when the database refuses a query', async () => {
    const { db } = fakeDb('shop,name,price\nA,B,1\n', async () => {
      throw new Error('connection lost');
    });
    await expect(checkInChild(db, { runId: RUN, kind: 'products', stage: false }).result).rejects.toThrow(
      /The check failed: Failed query/,
    );
  });

  it('with a connection of its own, fails clearly when the database cannot be reached, asking main nothing', async () => {
    const { db } = fakeDb('shop,name,price\nA,B,1\n', async () => {
      throw new Error('the main thread was asked a query');
    });
    const connection = { connectionString: 'postgres://nobody@127.0.0.1:1/none' };
    await expect(
      checkInChild(db, { runId: RUN, kind: 'products', stage: false, connection }).result,
    ).rejects.toThrow(/The check failed: connect ECONNREFUSED/);
  });

  // Per thread of a process: nice (field 19 of stat) and scheduling policy (field 41; 5 is SCHED_IDLE).
  const threadsOf = (pid: number | 'self') =>
    new Map(
      readdirSync(`/proc/${pid}/task`).map((tid) => {
        const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        return [tid, { nice: Number(fields[16]), policy: Number(fields[38]) }] as const;
      }),
    );
  const SCHED_OTHER = 0;
  const SCHED_IDLE = 5;
  const chrt = spawnSync('chrt', ['--version']).status === 0;
  /** Every thread of the check's process lowered (SCHED_IDLE with chrt), and the server's own not. */
  const expectOnlyTheCheckLowered = (pid: number) => {
    const threads = [...threadsOf(pid).values()];
    expect(new Set(threads.map((thread) => thread.nice))).toEqual(new Set([CHECK_NICE]));
    // With util-linux's chrt (Debian and most distributions), every thread runs only on idle cores.
    if (chrt) expect(new Set(threads.map((thread) => thread.policy))).toEqual(new Set([SCHED_IDLE]));
    // The server's own threads (this one included) keep their priority and policy.
    const own = [...threadsOf('self').values()];
    expect(new Set(own.map((thread) => thread.nice))).toEqual(new Set([0]));
    expect(new Set(own.map((thread) => thread.policy))).toEqual(new Set([SCHED_OTHER]));
    return threads;
  };

  it('with a connection of its own, runs in a child process whose every thread is lowered, the server’s at theirs (Linux)', async () => {
    if (process.platform !== 'linux') return;
    // The earlier tests' check processes wait for a check: ended first, so this one forks its own.
    await endWaitingCheckProcesses();
    // A database that accepts the connection and never answers: the check waits in it, fully started.
    const sockets: Socket[] = [];
    let connected: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => {
      connected = resolve;
    });
    const silent = createServer((socket) => {
      sockets.push(socket);
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const { db } = fakeDb('shop,name,price\nA,B,1\n', async () => {
        throw new Error('the server was asked a query');
      });
      const connection = { connectionString: `postgres://nobody@127.0.0.1:${port}/none` };
      const child = checkInChild(db, { runId: RUN, kind: 'products', stage: false, connection });
      await reached;
      const pid = child.pid as number;
      expect(pid).toBeGreaterThan(0);
      expect(pid).not.toBe(process.pid);
      // V8's collector threads and libuv's: a process of several threads, each lowered.
      expect(expectOnlyTheCheckLowered(pid).length).toBeGreaterThan(4);
      await child.stop();
      await expect(child.result).rejects.toThrow(/stopped/);
      expect(existsSync(`/proc/${pid}`)).toBe(false);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('embedded (through the server), checks in a process of its own too, the server’s threads untouched (Linux)', async () => {
    if (process.platform !== 'linux') return;
    await endWaitingCheckProcesses();
    const { db } = fakeDb('shop,name,price\nA,B,1\n', () => new Promise(() => undefined));
    let asked: () => void = () => undefined;
    const askedFirst = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const query = db.$client.query.bind(db.$client);
    (db.$client as { query: unknown }).query = (...args: Parameters<typeof query>) => {
      asked();
      return query(...args);
    };
    const check = checkInChild(db, { runId: RUN, kind: 'products', stage: false });
    // It has lowered itself and asked the server for the file's first part.
    await askedFirst;
    const pid = check.pid as number;
    expect(pid).not.toBe(process.pid);
    expectOnlyTheCheckLowered(pid);
    await check.stop();
    await expect(check.result).rejects.toThrow(/stopped/);
    expect(existsSync(`/proc/${pid}`)).toBe(false);
  });

  it('keeps a process whose check ended for the next check, and never one that was stopped', async () => {
    await endWaitingCheckProcesses();
    const { db } = fakeDb('shop,name,price\nA,B,1\n', async () => {
      throw new Error('the server was asked a query');
    });
    // Nothing listens there: each check fails cleanly ("connect ECONNREFUSED") and sends its outcome.
    const refused = { connectionString: 'postgres://nobody@127.0.0.1:1/none' };
    warmCheckProcess();
    const first = checkInChild(db, { runId: RUN, kind: 'products', stage: false, connection: refused });
    await expect(first.result).rejects.toThrow(/ECONNREFUSED/);
    // With a file: its bytes are read off the pipe even though the check fails before storing them.
    const second = checkInChild(db, {
      runId: RUN,
      kind: 'products',
      stage: false,
      connection: refused,
      file: new TextEncoder().encode('shop,name,price\n'.repeat(10_000)),
    });
    await expect(second.result).rejects.toThrow(/ECONNREFUSED/);
    const third = checkInChild(db, { runId: RUN, kind: 'products', stage: false, connection: refused });
    await expect(third.result).rejects.toThrow(/ECONNREFUSED/);
    // One process, forked before the first import, did all three.
    expect(second.pid).toBe(first.pid);
    expect(third.pid).toBe(first.pid);
    expect(existsSync(`/proc/${first.pid}`)).toBe(true);
    // A stopped check's process ends; the next check gets a new one.
    const stopped = checkInChild(db, { runId: RUN, kind: 'products', stage: false, connection: refused });
    expect(stopped.pid).toBe(first.pid);
    await stopped.stop();
    await expect(stopped.result).rejects.toThrow(/stopped/);
    expect(existsSync(`/proc/${first.pid}`)).toBe(false);
    const fresh = checkInChild(db, { runId: RUN, kind: 'products', stage: false, connection: refused });
    expect(fresh.pid).not.toBe(first.pid);
    await expect(fresh.result).rejects.toThrow(/ECONNREFUSED/);
    await endWaitingCheckProcesses();
    expect(existsSync(`/proc/${fresh.pid}`)).toBe(false);
  });

  it('fails its run when stopped (the server closing), and its process ends', async () => {
    const { db } = fakeDb('shop,name,price\nA,B,1\n', () => new Promise(() => undefined));
    const check = checkInChild(db, { runId: RUN, kind: 'products', stage: false });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(`/proc/${check.pid}`)).toBe(true);
    await check.stop();
    await expect(check.result).rejects.toThrow(/stopped/);
    expect(existsSync(`/proc/${check.pid}`)).toBe(false);
  });
});
