// The move of a PGlite data folder of an earlier release into the embedded PostgreSQL server
// (db/pglite-move.ts): a folder made as the last PGlite release made it, then the app's own start on it.
// Each test starts its own embedded server on its own MALL_DATA_DIR.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { createSession, SESSION_COOKIE } from '../auth/sessions';
import { parseEnv } from '../env';
import { openConfiguredDatabase } from '../start';
import { type Database, type Db, openEmbedded } from './client';
import { loadDemoData } from './demo-data';
import { moveFromPglite, openPglite } from './pglite-move';
import * as schema from './schema';
import { applyCopySettings, migrationsFolder, type Query, readLayout } from './table-copy';

const TIMEOUT = 240_000;

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-pglite-move-'));
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function newDataDir(name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { mode: 0o755 });
  return dir;
}

const IMAGE_KEY = `${'c'.repeat(43)}-160x160`;
const PASSWORD = 'correct horse battery';

/**
 * A PGlite data folder as the last PGlite release left it: the same migrations, the demo mall, accounts
 * with password hashes and a session, an audit log with jsonb and microseconds, texts COPY has to
 * escape, an image row with a variant's bytes and its files under images/.
 */
async function makePgliteMall(dataDir: string): Promise<{ sessionToken: string }> {
  const pglite = await openPglite({ dataDir: path.join(dataDir, 'pgdata') });
  try {
    const db = drizzle(pglite, { schema });
    await migrate(db, { migrationsFolder });
    // The app's functions take node-postgres' drizzle; PGlite's has the same query builder.
    const appDb = db as unknown as Db;
    await loadDemoData(appDb, '2026-03-02');
    const passwordHash = await hashPassword(PASSWORD);
    const [admin] = await db
      .insert(schema.users)
      .values({
        email: 'boss@example.com',
        role: 'admin',
        displayName: 'Bôss "the" \\ Boss\ttab\nnewline 🛍️',
        passwordHash,
        lastLogin: new Date('2026-02-03T04:05:06.789Z'),
      })
      .returning({ id: schema.users.id });
    if (!admin) throw new Error('no admin');
    await pglite.query(
      `insert into users (email, role, password_hash, created_at, last_login)
       values ('shopper@example.com', 'user', $1, '2025-12-31 23:59:59.123456+00', '2026-01-01 00:00:00.000001+05:30')`,
      [passwordHash],
    );
    const sessionToken = await createSession(appDb, admin.id, new Date());
    await pglite.query(
      `insert into sign_in_attempts (email, address, failures, window_started_at)
       values ('shopper@example.com', '203.0.113.7', 2, '2026-03-01 10:11:12.654321+00')`,
    );
    for (let i = 0; i < 5; i++) {
      await pglite.query(
        `insert into audit_log (at, actor_id, actor_email, entity_type, entity_id, entity_name, action, changes, detail)
         values ($1, $2, 'boss@example.com', 'shop', gen_random_uuid(), $3, 'update', $4, $5)`,
        [
          `2026-03-0${i + 1} 12:34:56.${String(123456 + i).padStart(6, '0')}+00`,
          admin.id,
          `Shop ${i} ünïcödé`,
          JSON.stringify({
            name: { before: `Old\t${i}`, after: `New\\${i}` },
            price: { before: 1.5, after: null },
          }),
          i % 2 ? null : JSON.stringify({ note: 'line one\nline two', list: [1, 'two', { three: 3 }] }),
        ],
      );
    }
    await pglite.query(`update products set price = 12345.67 where name = 'Filter Coffee'`);
    await pglite.query(`insert into images (key, width, height) values ($1, 160, 160)`, [IMAGE_KEY]);
    await pglite.query(`insert into image_variants (image_key, name, bytes) values ($1, '160.webp', $2)`, [
      IMAGE_KEY,
      Buffer.from([0x52, 0x49, 0x46, 0x46, 0x00, 0xff, 0x5c, 0x0a, 0x09]),
    ]);
    await pglite.query(`update shops set logo_image = $1 where name = 'Voltbay'`, [IMAGE_KEY]);
    // A renamed shop: its old public address is kept as a redirect (migration 0016).
    await pglite.query(`update shops set name = 'Voltbay Central' where name = 'Voltbay'`);
    await pglite.query(`update shops set name = 'Voltbay' where name = 'Voltbay Central'`);
    const imageDir = path.join(dataDir, 'images', IMAGE_KEY.slice(0, 2), IMAGE_KEY);
    fs.mkdirSync(imageDir, { recursive: true });
    fs.writeFileSync(path.join(imageDir, '160.webp'), Buffer.from('RIFF....WEBPVP8 '));
    await pglite.query(
      `insert into import_runs (kind, file_name, content, status, rows_total, created_by, created_by_email, result, finished_at)
       values ('shops', 'shops.csv', E'name,category\\nA,"B\\tC"\\n', 'done', 1, $1, 'boss@example.com',
               '{"counts": {"created": 1}}', '2026-03-01 08:00:00.5+00')`,
      [admin.id],
    );
    // An event of a shop, repeating with an exception (issue 35).
    await pglite.query(
      `insert into events (shop_id, title, place_kind, place_shop_id, start_date, start_time, end_date, end_time, tags, repeat)
       select id, 'Saturday market', 'shop', id, '2026-03-21', '10:00', '2026-03-21', '12:00', '{market,food}',
              '{"freq": "weekly", "count": 6, "except": ["2026-03-28"]}'
         from shops where name = 'Voltbay'`,
    );
    // Insights' counts and a search synonym (issue 34).
    await pglite.query(
      `insert into insight_counts (day, hour, metric, subject, n) values ('2026-03-01', 14, 'shop-view', 'x', 40)`,
    );
    await pglite.query(`insert into search_synonyms (term, replacement) values ('loo', 'toilets')`);
    // A shopper who manages a shop, open invites, and an import being written with a staged row.
    await pglite.query(
      `insert into shop_managers (shop_id, user_id)
       select s.id, u.id from shops s, users u where s.name = 'Voltbay' and u.email = 'shopper@example.com'`,
    );
    await pglite.query(
      `insert into manager_invites (shop_id, code_hash, code_hint, created_by, expires_at)
       select id, 'manager-hash', 'ab12', $1, '2026-04-01 00:00:00+00' from shops where name = 'Voltbay'`,
      [admin.id],
    );
    await pglite.query(
      `insert into admin_invites (code_hash, code_hint, created_by, expires_at, used_at, used_by)
       values ('admin-hash', 'cd34', $1, '2026-04-01 00:00:00.25+00', '2026-03-01 00:00:00.000123+00', $1)`,
      [admin.id],
    );
    const [running] = await db
      .insert(schema.importRuns)
      .values({
        kind: 'shops',
        fileName: 'running.csv',
        content: 'name,category,floor\nStaged,Books,Ground\n',
        status: 'running',
        rowsTotal: 1,
        createdBy: admin.id,
        createdByEmail: 'boss@example.com',
        heartbeatAt: new Date(),
      })
      .returning({ id: schema.importRuns.id });
    await db.insert(schema.importStagedRows).values({
      runId: running?.id as string,
      seq: 1,
      action: 'create',
      entityId: '00000000-0000-4000-8000-000000000001',
      entityName: 'Staged',
      values: { name: 'Staged', price: '10.10' },
      changes: { name: { before: null, after: 'Staged' } },
    });
    return { sessionToken };
  } finally {
    await pglite.close();
  }
}

interface Contents {
  tables: Record<string, { rows: number; md5: string | null }>;
  sequences: string[];
}

/** Every public table's row count and digest (each row as text, in order), and the sequences. */
async function contentsOf(query: Query): Promise<Contents> {
  await applyCopySettings(query, false);
  const layout = await readLayout(query);
  const tables: Contents['tables'] = {};
  for (const { name } of layout.tables) {
    const [row] = await query(
      `select count(*)::int as rows, md5(string_agg(t::text, ',' order by t::text)) as md5 from public."${name}" t`,
    );
    tables[name] = { rows: row?.rows as number, md5: (row?.md5 as string | null) ?? null };
  }
  return { tables, sequences: layout.sequences.map((s) => `${s.name} ${s.lastValue} ${s.isCalled}`) };
}

async function pgliteContents(dataDir: string): Promise<Contents> {
  const pglite: PGlite = await openPglite({ dataDir });
  try {
    return await contentsOf(
      async (text, params) => (await pglite.query<Record<string, unknown>>(text, params)).rows,
    );
  } finally {
    await pglite.close();
  }
}

async function serverContents(database: Database): Promise<Contents> {
  const client = await database.pool.connect();
  try {
    return await contentsOf(async (text, params) => (await client.query(text, params)).rows);
  } finally {
    // Its session settings were changed: not handed back to the pool.
    client.release(true);
  }
}

function recordingLog() {
  const lines: { object: object; message: string }[] = [];
  const record = (object: object, message?: string) => {
    lines.push({ object, message: message ?? '' });
  };
  return { lines, log: { info: record, warn: record, error: record } };
}

const movedAside = (dataDir: string) =>
  fs.readdirSync(dataDir).filter((name) => /^pgdata\.pglite-moved-\d{14}(-\d+)?$/.test(name));

describe('moving a PGlite data folder into the embedded server', () => {
  it(
    'copies every table exactly at the first start, keeps the old folder aside, and does it only once',
    async () => {
      const dataDir = newDataDir('mall');
      const { sessionToken } = await makePgliteMall(dataDir);
      const before = await pgliteContents(path.join(dataDir, 'pgdata'));
      // Every table has rows.
      const empty = Object.entries(before.tables)
        .filter(([, table]) => table.rows === 0)
        .map(([name]) => name);
      expect(empty).toEqual([]);
      expect(Object.keys(before.tables).length).toBeGreaterThan(15);
      expect(before.tables.products?.rows).toBe(150);
      expect(before.tables.audit_log?.rows).toBe(5);
      expect(before.tables.search_words?.rows).toBeGreaterThan(0);

      const env = parseEnv({ MALL_DATA_DIR: dataDir });
      const first = recordingLog();
      let database = await openConfiguredDatabase(env, first.log);
      let afterSignIn: Contents;
      try {
        const after = await serverContents(database);
        expect(after).toEqual(before);
        const moved = first.lines.find((line) => line.message.startsWith('moved the PGlite database'));
        expect(moved?.message).toMatch(/150 products/);
        expect(moved?.message).toMatch(/2 users/);
        expect(moved?.message).toMatch(/remove it once you are satisfied/);
        const [aside] = movedAside(dataDir);
        expect(moved?.message).toContain(path.join(path.resolve(dataDir), aside as string));
        // No demo mall was loaded on top.
        expect(first.lines.some((line) => line.message === 'loaded the demo mall')).toBe(false);

        // Sign-in works on the moved accounts: the same hash, the same password, the same session.
        const [hash] = (
          await database.pool.query<{ password_hash: string }>(
            `select password_hash from users where email = 'boss@example.com'`,
          )
        ).rows;
        expect(await verifyPassword(PASSWORD, hash?.password_hash as string)).toBe(true);
        const app = await buildApp({ database, timeZone: 'UTC', sessionCache: false });
        try {
          const me = await app.inject({
            method: 'GET',
            url: '/api/auth/me',
            headers: { cookie: `${SESSION_COOKIE}=${sessionToken}` },
          });
          expect(me.json().user).toMatchObject({ email: 'boss@example.com', role: 'admin' });
          const signIn = await app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: 'shopper@example.com', password: PASSWORD },
          });
          expect(signIn.statusCode).toBe(200);
        } finally {
          await app.close();
        }
        afterSignIn = await serverContents(database);
        expect(afterSignIn.tables.users).not.toEqual(before.tables.users);
      } finally {
        await database.close();
      }

      // The old folder is kept aside, whole; the image files stay where they were.
      expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
      const aside = movedAside(dataDir);
      expect(aside).toHaveLength(1);
      expect(fs.existsSync(path.join(dataDir, aside[0] as string, 'PG_VERSION'))).toBe(true);
      expect(
        fs.readFileSync(path.join(dataDir, 'images', IMAGE_KEY.slice(0, 2), IMAGE_KEY, '160.webp'), 'utf8'),
      ).toBe('RIFF....WEBPVP8 ');

      // The second start copies nothing (the sign-in above changed rows: they stay as they are now).
      const second = recordingLog();
      database = await openConfiguredDatabase(env, second.log);
      try {
        expect(second.lines.some((line) => /PGlite/.test(line.message))).toBe(false);
        expect(await serverContents(database)).toEqual(afterSignIn);
        expect(await moveFromPglite(database, dataDir, second.log)).toBe(false);
        // The sequences go on from the moved values.
        const { rows } = await database.pool.query<{ id: string }>(
          `insert into audit_log (actor_email, entity_type, entity_name, action, changes)
           values ('boss@example.com', 'shop', 'After', 'update', '{}') returning id::text`,
        );
        const lastMoved = before.sequences.find((line) => line.startsWith('audit_log_id_seq '));
        expect(lastMoved).toBe('audit_log_id_seq 5 true');
        expect(rows[0]?.id).toBe('6');
        expect((await serverContents(database)).tables.audit_log?.rows).toBe(6);
      } finally {
        await database.close();
      }
      expect(movedAside(dataDir)).toEqual(aside);
    },
    TIMEOUT,
  );

  it(
    'copies again when the last start committed the copy but did not rename the folder',
    async () => {
      const dataDir = newDataDir('crashed');
      await makePgliteMall(dataDir);
      const before = await pgliteContents(path.join(dataDir, 'pgdata'));
      const env = parseEnv({ MALL_DATA_DIR: dataDir });
      // The start dies between the copy's commit and the rename.
      const renameSync = fs.renameSync;
      const rename = vi.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
        if (from === path.join(dataDir, 'pgdata')) throw new Error('killed before the rename');
        renameSync(from, to);
      });
      try {
        await expect(openConfiguredDatabase(env, recordingLog().log)).rejects.toThrow(
          'killed before the rename',
        );
      } finally {
        rename.mockRestore();
      }
      expect(fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
      expect(movedAside(dataDir)).toEqual([]);
      // The copy was committed; changed here (the server opened without the start's steps), to see it
      // made again rather than left.
      const server = await openEmbedded(dataDir);
      try {
        expect((await serverContents(server)).tables).toEqual(before.tables);
        await server.pool.query(`update shops set name = name || ' (changed)'`);
        await server.pool.query(`insert into audit_log (actor_email, entity_type, entity_name, action, changes)
                                 values ('x@example.com', 'shop', 'X', 'update', '{}')`);
      } finally {
        await server.close();
      }

      const again = recordingLog();
      const database = await openConfiguredDatabase(env, again.log);
      try {
        expect(again.lines.some((line) => line.message.startsWith('moved the PGlite database'))).toBe(true);
        expect(await serverContents(database)).toEqual(before);
      } finally {
        await database.close();
      }
      expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
      expect(movedAside(dataDir)).toHaveLength(1);
    },
    TIMEOUT,
  );

  it(
    'does nothing when there is no PGlite folder',
    async () => {
      const dataDir = newDataDir('new');
      const { lines, log } = recordingLog();
      const unused = {} as Database;
      expect(await moveFromPglite(unused, dataDir, log)).toBe(false);
      expect(lines).toEqual([]);
      // A server's own start on a new folder: the demo mall, nothing moved.
      const database = await openConfiguredDatabase(parseEnv({ MALL_DATA_DIR: dataDir }), log);
      try {
        expect(lines.some((line) => line.message === 'loaded the demo mall')).toBe(true);
        expect(lines.some((line) => /PGlite/.test(line.message))).toBe(false);
        const client = new pg.Client({ connectionString: database.workerConnection.connectionString });
        await client.connect();
        expect((await client.query('select count(*)::int as n from shops')).rows[0]?.n).toBe(24);
        await client.end();
      } finally {
        await database.close();
      }
    },
    TIMEOUT,
  );

  it(
    'never empties a mall the server already keeps when a PGlite folder reappears: refused in one line',
    async () => {
      const dataDir = newDataDir('back');
      const { log } = recordingLog();
      const env = parseEnv({ MALL_DATA_DIR: dataDir });
      // A mall of the embedded server's own (the demo), then a PGlite folder next to it (a rollback to the
      // PGlite release, a folder renamed back).
      const first = await openConfiguredDatabase(env, log);
      await first.close();
      await makePgliteMall(dataDir);
      await expect(openConfiguredDatabase(env, log)).rejects.toThrow(
        /already holds a mall that did not come from this folder/,
      );
      const database = await openConfiguredDatabase(
        parseEnv({ MALL_DATA_DIR: dataDir, MALL_DEMO_DATA: 'off' }),
        log,
      ).catch(() => null);
      expect(database).toBeNull();
      // The mall is as it was: the pgdata folder moved out by hand, the next start serves it.
      fs.renameSync(path.join(dataDir, 'pgdata'), path.join(dataDir, 'pgdata.old'));
      const again = await openConfiguredDatabase(env, log);
      try {
        expect((await again.pool.query('select count(*)::int as n from shops')).rows[0]?.n).toBe(24);
      } finally {
        await again.close();
      }
    },
    TIMEOUT,
  );
});
