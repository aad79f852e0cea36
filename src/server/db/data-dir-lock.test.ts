import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { openConfiguredDatabase } from '../start';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-lock-'));
}

/** Another process that takes the lock the way a second server would, then waits. */
async function holdLockInChild(dir: string): Promise<ChildProcess> {
  const moduleUrl = new URL('./data-dir-lock.ts', import.meta.url).href;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { lockDataDir } = await import(${JSON.stringify(moduleUrl)}); lockDataDir(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
  return child;
}

describe('the embedded data directory lock', () => {
  it('refuses a second server while the first runs, with a message naming the folder', async () => {
    const dir = tempDir();
    const holder = await holdLockInChild(dir);
    let caught: unknown;
    try {
      lockDataDir(dir);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DataDirInUseError);
    expect((caught as Error).message).toContain(`process ${holder.pid}`);
    expect((caught as Error).message).toContain(path.resolve(dir));
    expect((caught as Error).message).toContain('MALL_DATA_DIR');
  });

  it('is taken by the server start-up: a second server refuses before opening the database', async () => {
    const dir = tempDir();
    await holdLockInChild(dir);
    const opened = await openConfiguredDatabase(
      parseEnv({ MALL_DATA_DIR: dir }),
      { info() {} },
      { demoData: false },
    ).catch((error: unknown) => error);
    if (!(opened instanceof Error)) await (opened as { close(): Promise<void> }).close();
    expect(opened).toBeInstanceOf(DataDirInUseError);
    expect(fs.existsSync(path.join(dir, 'pgdata'))).toBe(false);
  });

  it('takes over the lock of a process that was killed', async () => {
    const dir = tempDir();
    const holder = await holdLockInChild(dir);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
  });
});
