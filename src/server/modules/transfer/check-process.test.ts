import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { JOB_NICE } from '../../lib/jobs/protocol';
import { checkInChild, endWaitingCheckProcesses, warmCheckProcess } from './check-process';

const RUN = '11111111-1111-4111-8111-111111111111';

/** A connection to nothing: each check fails cleanly ("connect ECONNREFUSED") and sends its outcome. */
const refused = { connectionString: 'postgres://nobody@127.0.0.1:1/none' };

/**
 * A database that accepts the connection and never answers: a check waits in it, fully started.
 * `reached` resolves on the first connection.
 */
async function silentDatabase() {
  const sockets: Socket[] = [];
  let connected: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    connected = resolve;
  });
  const server = createServer((socket) => {
    sockets.push(socket);
    connected();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    connection: { connectionString: `postgres://nobody@127.0.0.1:${port}/none` },
    reached,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the import check off the server’s thread', () => {
  it('fails clearly when its database cannot be reached', async () => {
    await expect(
      checkInChild({ runId: RUN, kind: 'products', stage: false, connection: refused, timeZone: 'UTC' })
        .result,
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
    expect(new Set(threads.map((thread) => thread.nice))).toEqual(new Set([JOB_NICE]));
    // With util-linux's chrt (Debian and most distributions), every thread runs only on idle cores.
    if (chrt) expect(new Set(threads.map((thread) => thread.policy))).toEqual(new Set([SCHED_IDLE]));
    // The server's own threads (this one included) keep their priority and policy.
    const own = [...threadsOf('self').values()];
    expect(new Set(own.map((thread) => thread.nice))).toEqual(new Set([0]));
    expect(new Set(own.map((thread) => thread.policy))).toEqual(new Set([SCHED_OTHER]));
    return threads;
  };

  it('runs in a child process whose every thread is lowered, the server’s at theirs (Linux)', async () => {
    if (process.platform !== 'linux') return;
    // The earlier tests' check processes wait for a check: ended first, so this one forks its own.
    await endWaitingCheckProcesses();
    const silent = await silentDatabase();
    try {
      const child = checkInChild({
        runId: RUN,
        kind: 'products',
        stage: false,
        timeZone: 'UTC',
        connection: silent.connection,
      });
      await silent.reached;
      const pid = child.pid as number;
      expect(pid).toBeGreaterThan(0);
      expect(pid).not.toBe(process.pid);
      // V8's collector threads and libuv's: a process of several threads, each lowered.
      expect(expectOnlyTheCheckLowered(pid).length).toBeGreaterThan(4);
      await child.stop();
      await expect(child.result).rejects.toThrow(/stopped/);
      expect(existsSync(`/proc/${pid}`)).toBe(false);
    } finally {
      await silent.close();
    }
  });

  it('keeps a process whose check ended for the next check, and never one that was stopped', async () => {
    await endWaitingCheckProcesses();
    warmCheckProcess();
    const first = checkInChild({
      runId: RUN,
      kind: 'products',
      stage: false,
      connection: refused,
      timeZone: 'UTC',
    });
    await expect(first.result).rejects.toThrow(/ECONNREFUSED/);
    // With a file: its bytes are read off the pipe even though the check fails before storing them.
    const second = checkInChild({
      runId: RUN,
      kind: 'products',
      stage: false,
      timeZone: 'UTC',
      connection: refused,
      file: new TextEncoder().encode('shop,name,price\n'.repeat(10_000)),
    });
    await expect(second.result).rejects.toThrow(/ECONNREFUSED/);
    const third = checkInChild({
      runId: RUN,
      kind: 'products',
      stage: false,
      connection: refused,
      timeZone: 'UTC',
    });
    await expect(third.result).rejects.toThrow(/ECONNREFUSED/);
    // One process, forked before the first import, did all three.
    expect(second.pid).toBe(first.pid);
    expect(third.pid).toBe(first.pid);
    expect(existsSync(`/proc/${first.pid}`)).toBe(true);
    // A stopped check's process ends; the next check gets a new one.
    const stopped = checkInChild({
      runId: RUN,
      kind: 'products',
      stage: false,
      connection: refused,
      timeZone: 'UTC',
    });
    expect(stopped.pid).toBe(first.pid);
    await stopped.stop();
    await expect(stopped.result).rejects.toThrow(/stopped/);
    expect(existsSync(`/proc/${first.pid}`)).toBe(false);
    const fresh = checkInChild({
      runId: RUN,
      kind: 'products',
      stage: false,
      connection: refused,
      timeZone: 'UTC',
    });
    expect(fresh.pid).not.toBe(first.pid);
    await expect(fresh.result).rejects.toThrow(/ECONNREFUSED/);
    await endWaitingCheckProcesses();
    expect(existsSync(`/proc/${fresh.pid}`)).toBe(false);
  });

  it('fails its run when stopped (the server closing), and its process ends', async () => {
    const silent = await silentDatabase();
    try {
      const check = checkInChild({
        runId: RUN,
        kind: 'products',
        stage: false,
        timeZone: 'UTC',
        connection: silent.connection,
      });
      // Started: it waits for the database's answer.
      await silent.reached;
      expect(existsSync(`/proc/${check.pid}`)).toBe(true);
      await check.stop();
      await expect(check.result).rejects.toThrow(/The server stopped during the check/);
      expect(existsSync(`/proc/${check.pid}`)).toBe(false);
    } finally {
      await silent.close();
    }
  });
});
