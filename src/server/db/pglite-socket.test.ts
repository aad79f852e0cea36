// What PGlite's socket server (@electric-sql/pglite-socket) guarantees a second connection, on which
// decision 022 rests: embedded, the import check's connection shares PGlite's one session and queries
// only in turns, while the server holds its pool's client (seventh amendment).
// - Transactions: while the app's connection is in a transaction, another connection's statement waits
//   and does not run inside it (a rollback does not take it along).
// - Not guaranteed: the server queues each protocol message on its own, not a whole query, so the
//   messages of a query too big for one socket read can be interleaved with another connection's —
//   which then binds the wrong unnamed statement. If this test starts failing on that part, the server
//   has learnt to keep a query together and the worker could have its own connection embedded too.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openEmbedded, resync } from './client';

let database: Database;
let other: pg.Client;
beforeAll(async () => {
  database = await openEmbedded();
  const { host, port } = database.pool.options as { host: string; port: number };
  other = new pg.Client({ host, port, user: 'postgres', database: 'postgres' });
  await other.connect();
});
afterAll(async () => {
  await other?.end();
  await database?.close();
});

describe('PGlite’s socket server with a second connection', () => {
  it('holds another connection’s write back while the app is in a transaction, outside that transaction', async () => {
    await database.pool.query('create table socket_probe (v int)');
    const app = await database.pool.connect();
    try {
      await app.query('begin');
      await app.query('insert into socket_probe values (1)');
      let written = false;
      const write = other.query('insert into socket_probe values ($1)', [2]).then(() => {
        written = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(written).toBe(false);
      await app.query('rollback');
      await write;
    } finally {
      app.release();
    }
    expect((await database.pool.query('select v from socket_probe order by v')).rows).toEqual([{ v: 2 }]);
  });

  it('interleaves two connections’ big parameterised queries (why an embedded check queries only in turns)', async () => {
    const big = 'x'.repeat(400_000);
    const answers = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => [
        database.pool.query('select $1::int as v', [i]).then((r) => r.rows[0].v === i),
        other.query('select length($1::text) as n', [`${i}${big}`]).then((r) => r.rows[0].n > 400_000),
      ]).flat(),
    );
    const wrong = answers.filter((answer) => answer.status === 'rejected' || !answer.value).length;
    expect(wrong).toBeGreaterThan(0);
  });

  it('a connection that dies half-way through a failed extended query leaves the session skipping messages until a Sync', async () => {
    // A check process killed during its turn: its Parse failed (the session now skips every message
    // until a Sync) and its Sync never came. The next query of the app's connection is swallowed (no
    // rows, no error) — unless that connection sends a Sync first, as the server does (check-process.ts).
    const { host, port } = database.pool.options as { host: string; port: number };
    const dieDuringFailedParse = async () => {
      const dying = new pg.Client({ host, port, user: 'postgres', database: 'postgres' });
      dying.on('error', () => undefined);
      await dying.connect();
      const socket = (dying as unknown as { connection: { stream: import('node:net').Socket } }).connection
        .stream;
      const sql = Buffer.from('select from nowhere_at_all\0\0\0', 'utf8');
      const parse = Buffer.alloc(1 + 4 + sql.length);
      parse.write('P', 0);
      parse.writeInt32BE(4 + sql.length, 1);
      sql.copy(parse, 5);
      await new Promise<void>((resolve) => socket.write(parse, () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
    };
    await dieDuringFailedParse();
    expect((await database.pool.query('select $1::int as v', [7])).rows).toEqual([]);

    await dieDuringFailedParse();
    const app = await database.pool.connect();
    try {
      await resync(app);
      expect((await app.query('select $1::int as v', [7])).rows).toEqual([{ v: 7 }]);
    } finally {
      app.release();
    }
  });
});
