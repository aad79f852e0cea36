import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import type { HttpError } from '../../errors';
import { CHECK_NICE, checkOnThread } from './check-thread';

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
          // Read now, as a real driver does: the batch's bytes are freed once the statement is done.
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

describe('the import check on a worker thread', () => {
  it('reads the file through the main thread’s database and answers the preview', async () => {
    const file = 'shop,name,price\nNo such shop,Lamp,12.50\n';
    const { db } = fakeDb(file);
    const progress: number[] = [];
    const thread = checkOnThread(db, { runId: RUN, kind: 'products', stage: false }, (rows) =>
      progress.push(rows),
    );
    const result = await thread.result;
    expect(result.counts).toEqual({ created: 0, updated: 0, unchanged: 0, refused: 1 });
    expect(result.refused[0]).toEqual({
      line: 2,
      errors: [{ column: 'shop', message: 'Unknown shop "No such shop"' }],
    });
    expect(progress.at(-1)).toBe(1);
  });

  it('stages the rows of a confirmed run through the main thread, a batch per statement', async () => {
    const shop = { id: '22222222-2222-4222-8222-222222222222', name: 'Lamps', code: 'L1' };
    const rows = Array.from({ length: 1200 }, (_, i) => `L1,P${i},Lamp ${i},${i + 1}.50`);
    const { db, staged, stagedBytes } = fakeDb(
      `shop_code,code,name,price\n${rows.join('\n')}\n`,
      async (text) =>
        text.includes('"external_code"') && text.includes('from "shops"')
          ? [[shop.id, shop.name, shop.code]]
          : [],
    );
    const result = await checkOnThread(db, { runId: RUN, kind: 'products', stage: true }).result;
    expect(result.counts.created).toBe(1200);
    // Each batch's bytes were freed once written (detached: nothing left for a mark-compact to find).
    expect(stagedBytes).toHaveLength(3);
    for (const bytes of stagedBytes) expect(bytes.byteLength).toBe(0);
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
      checkOnThread(db, { runId: RUN, kind: 'products', stage: false }).result,
    ).rejects.toMatchObject({ statusCode: 400, message: 'The file is empty' } satisfies Partial<HttpError>);
  });

  it('fails, never hangs, when the database refuses a query', async () => {
    const { db } = fakeDb('shop,name,price\nA,B,1\n', async () => {
      throw new Error('connection lost');
    });
    await expect(checkOnThread(db, { runId: RUN, kind: 'products', stage: false }).result).rejects.toThrow(
      /The check failed: Failed query/,
    );
  });

  it('with a connection of its own, fails clearly when the database cannot be reached, asking main nothing', async () => {
    const { db } = fakeDb('shop,name,price\nA,B,1\n', async () => {
      throw new Error('the main thread was asked a query');
    });
    const connection = { connectionString: 'postgres://nobody@127.0.0.1:1/none' };
    await expect(
      checkOnThread(db, { runId: RUN, kind: 'products', stage: false, connection }).result,
    ).rejects.toThrow(/The check failed: connect ECONNREFUSED/);
  });

  it('runs the check at a lower priority than the server’s own threads (Linux)', async () => {
    if (process.platform !== 'linux') return;
    const niceOf = () =>
      new Map(
        readdirSync('/proc/self/task').map((tid) => {
          const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
          return [tid, Number(fields[16])] as const;
        }),
      );
    // Threads of the earlier tests' checks may still be ending: the new one is told apart by its id.
    const loweredBefore = new Set(
      [...niceOf()].filter(([, nice]) => nice === CHECK_NICE).map(([tid]) => tid),
    );
    const newlyLowered = () =>
      [...niceOf()].filter(([tid, nice]) => nice === CHECK_NICE && !loweredBefore.has(tid)).length;
    const others = () => [...niceOf().values()].filter((nice) => nice !== CHECK_NICE);
    const { db } = fakeDb('shop,name,price\nA,B,1\n', () => new Promise(() => undefined));
    const thread = checkOnThread(db, { runId: RUN, kind: 'products', stage: false });
    let during = 0;
    for (let i = 0; i < 100 && during === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      during = newlyLowered();
    }
    expect(during).toBe(1);
    // The server's own threads (this one included) keep their priority.
    expect(new Set(others())).toEqual(new Set([0]));
    await thread.stop();
    await expect(thread.result).rejects.toThrow(/stopped/);
  });

  it('fails its run when stopped (the server closing), and the worker ends', async () => {
    const { db } = fakeDb('shop,name,price\nA,B,1\n', () => new Promise(() => undefined));
    const thread = checkOnThread(db, { runId: RUN, kind: 'products', stage: false });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await thread.stop();
    await expect(thread.result).rejects.toThrow(/stopped/);
  });
});
