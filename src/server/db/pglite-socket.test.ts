// What PGlite's socket server (@electric-sql/pglite-socket) guarantees a second connection, on which
// decision 022 rests: the import check's worker gets a connection of its own on PostgreSQL only.
// - Transactions: while the app's connection is in a transaction, another connection's statement waits
//   and does not run inside it (a rollback does not take it along).
// - Not guaranteed: the server queues each protocol message on its own, not a whole query, so the
//   messages of a query too big for one socket read can be interleaved with another connection's —
//   which then binds the wrong unnamed statement. If this test starts failing on that part, the server
//   has learnt to keep a query together and the worker could have its own connection embedded too.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openEmbedded } from './client';

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

  it('interleaves two connections’ big parameterised queries (why the worker has no connection embedded)', async () => {
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
});
