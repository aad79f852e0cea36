// Bulk import and export (/api/imports, /api/export/<kind>): the preview's counts and refused rows with
// the forms' messages, nothing written before the confirm, all or nothing, the valid rows only, the
// audit entries of a run, an export read back as an import changing nothing, and bad files answered 4xx.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfferInput } from '../../../shared/offer';
import { ProductInput } from '../../../shared/product';
import { type ShopDetail, ShopInput } from '../../../shared/shop';
import type { ImportRun } from '../../../shared/transfer';
import type { WorkerConnection } from '../../db/client';
import type { HttpError } from '../../errors';
import { type Directory, openDirectory, uniqueName } from '../../test/catalog-fixtures';
import { createTestApp, TEST_TIME_ZONE, type TestApp } from '../../test/harness';
import { importSettled } from '../../test/imports';
import { CHECK_APPLICATION_NAME, checkInChild, endWaitingCheckProcesses } from './check-process';
import { type ApplyRun, clearStaged, publishImport, stageImport } from './import-apply';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

const upload = (kind: string, body: string | Buffer, fileName = 'file.csv', contentType = 'text/csv') =>
  t.app.inject({
    method: 'POST',
    url: `/api/imports?kind=${kind}&fileName=${encodeURIComponent(fileName)}`,
    headers: { ...d.admin.headers, 'content-type': contentType },
    payload: body,
  });

const settled = (id: string) => importSettled(t.app, d.admin, id);

async function previewOf(kind: string, text: string, fileName?: string): Promise<ImportRun> {
  const response = await upload(kind, text, fileName);
  expect(response.statusCode, response.body).toBe(202);
  return settled((response.json() as ImportRun).id);
}

async function confirm(id: string, validOnly = false) {
  const response = await d.call(d.admin, 'POST', `/api/imports/${id}/confirm`, { validOnly });
  if (response.statusCode !== 202) return { response, run: null };
  return { response, run: await settled(id) };
}

const count = async (sql: string, params: unknown[]) =>
  Number((await t.database.pool.query(sql, params)).rows[0].n);

describe('products: preview, refused rows, all or nothing, corrected re-import', () => {
  it('previews without writing, refuses a run with refused rows, then imports the corrected file', async () => {
    const shop = await d.shop({ externalCode: uniqueName('S') });
    const other = await d.shop();
    const offer = await d.offer({ shopId: other.id });
    const existing = await d.product({ shopId: shop.id, name: uniqueName('Kept'), price: 5 });
    const code = shop.externalCode as string;
    const bad = [
      'shop_code,code,name,price,offer',
      `${code},A1,Lamp,12.50,`,
      `${code},A2,Chair,abc,`,
      `${code},A1,Again,3,`,
      `NOPE,A3,Ghost,3,`,
      `${code},A4,Desk,1.234,`,
      `${code},A5,Table,9,${offer.title}`,
      `${code},,${existing.name},5,`,
      `${code},,${existing.name.slice(0, -1)}X,6,`,
    ].join('\n');
    const run = await previewOf('products', bad, 'prices.csv');
    expect(run.status).toBe('previewed');
    expect(run.preview?.counts).toEqual({ created: 2, updated: 0, unchanged: 1, refused: 5 });
    expect(run.preview?.refused).toEqual([
      { line: 3, errors: [{ column: 'price', message: 'Valid price is required' }] },
      { line: 4, errors: [{ column: 'code', message: 'The same code "A1" is on line 2 too' }] },
      { line: 5, errors: [{ column: 'shop_code', message: 'Unknown shop code "NOPE"' }] },
      { line: 6, errors: [{ column: 'price', message: 'Price can have at most 2 decimal places' }] },
      { line: 7, errors: [{ column: 'offer', message: "This offer is not one of the product's shop" }] },
    ]);
    expect(run.preview?.matchedByName).toEqual([8]);
    expect(run.preview?.matchedByNameTotal).toBe(1);
    expect(await count('select count(*) as n from products where shop_id = $1', [shop.id])).toBe(1);

    const errors = await t.app.inject({ url: `/api/imports/${run.id}/errors`, headers: d.admin.headers });
    expect(errors.statusCode).toBe(200);
    expect(errors.headers['content-type']).toContain('text/csv');
    expect(errors.body).toContain('"3","price","Valid price is required"');

    const refused = await confirm(run.id);
    expect(refused.response.statusCode).toBe(409);
    expect(refused.response.json().error.message).toBe(
      '5 rows are refused, so nothing was imported. Correct them, or import the valid rows only',
    );
    expect(await count('select count(*) as n from products where shop_id = $1', [shop.id])).toBe(1);

    const fixed = [
      'shop_code,code,name,price',
      `${code},A1,Lamp,12.50`,
      `${code},A2,Chair,40`,
      `${code},,${existing.name},7.5`,
    ].join('\n');
    const second = await previewOf('products', fixed, 'prices-fixed.csv');
    expect(second.preview?.counts).toEqual({ created: 2, updated: 1, unchanged: 0, refused: 0 });
    const auditBefore = await count('select coalesce(max(id), 0) as n from audit_log', []);
    const done = await confirm(second.id);
    expect(done.run?.status, JSON.stringify(done.run?.result)).toBe('done');
    expect(done.run?.result?.counts).toEqual({ created: 2, updated: 1, unchanged: 0, refused: 0 });
    const entries = (
      await t.database.pool.query(
        'select entity_type, action, entity_name, changes, detail from audit_log where id > $1 order by id',
        [auditBefore],
      )
    ).rows;
    expect(entries.map((e) => [e.entity_type, e.action])).toEqual([
      ['product', 'create'],
      ['product', 'create'],
      ['product', 'update'],
      ['import', 'create'],
    ]);
    expect(entries[2].changes).toEqual({ price: { before: '5.00', after: '7.50' } });
    expect(entries[3]).toMatchObject({
      entity_name: 'prices-fixed.csv',
      detail: { kind: 'products', created: 2, updated: 1, unchanged: 0, refused: 0 },
    });
    expect(entries[0].detail).toEqual({ importRun: second.id });
    expect(await count('select count(*) as n from products where shop_id = $1', [shop.id])).toBe(3);
  });

  it('imports the valid rows only when asked, leaving the refused ones', async () => {
    const shop = await d.shop();
    const text = ['shop,name,price', `${shop.name},Good,1`, `${shop.name},,2`].join('\n');
    const run = await previewOf('products', text);
    expect(run.preview?.refused).toEqual([
      { line: 3, errors: [{ column: 'name', message: 'Name is required' }] },
    ]);
    const done = await confirm(run.id, true);
    expect(done.run?.status).toBe('done');
    expect(done.run?.rowsChecked).toBe(2);
    expect(await count('select count(*) as n from products where shop_id = $1', [shop.id])).toBe(1);
  });
});

describe('rows matched by name', () => {
  it('lists the first 200 lines and says how many there are in all', async () => {
    const shop = await d.shop();
    const text = [
      'shop,name,price',
      ...Array.from({ length: 250 }, (_, i) => `${shop.name},Named ${i},1`),
    ].join('\n');
    const first = await previewOf('products', text);
    expect((await confirm(first.id)).run?.status).toBe('done');
    const again = await previewOf('products', text);
    expect(again.preview?.counts.unchanged).toBe(250);
    expect(again.preview?.matchedByNameTotal).toBe(250);
    expect(again.preview?.matchedByName).toEqual(Array.from({ length: 200 }, (_, i) => i + 2));
  });
});

describe('the mall changing between the staging and the publish', () => {
  const runOf = async (id: string): Promise<ApplyRun> => {
    const row = (await t.database.pool.query('select file_name from import_runs where id = $1', [id]))
      .rows[0];
    return { id, kind: 'products', fileName: row.file_name, validOnly: false };
  };
  const admin = { id: null, email: 'transfer test' };

  it('publishes nothing when a record it updates was deleted meanwhile, or a code it creates was taken', async () => {
    const shop = await d.shop({ externalCode: uniqueName('S') });
    const code = shop.externalCode as string;
    const gone = await d.product({ shopId: shop.id, name: uniqueName('Gone'), price: 5, externalCode: 'G1' });
    const kept = await d.product({ shopId: shop.id, name: uniqueName('Kept'), price: 5, externalCode: 'K1' });
    const file = `shop_code,code,name,price\n${code},G1,${gone.name},6\n${code},K1,${kept.name},7\n${code},N1,New one,8\n`;

    const stale = await previewOf('products', file);
    const run = await runOf(stale.id);
    const staged = await stageImport(t.database.db, run, {
      connection: t.database.workerConnection,
      timeZone: TEST_TIME_ZONE,
    });
    expect(staged.counts).toMatchObject({ created: 1, updated: 2 });
    await t.database.pool.query('delete from products where id = $1', [gone.id]);
    await expect(publishImport(t.database.db, admin, run, staged, () => new Date())).rejects.toMatchObject({
      statusCode: 409,
      code: 'IMPORT_STALE',
    });
    await clearStaged(t.database.db, run.id);
    expect(await count('select count(*) as n from products where shop_id = $1', [shop.id])).toBe(1);
    expect(await count('select count(*) as n from products where id = $1 and price = 5', [kept.id])).toBe(1);
    expect(await count(`select count(*) as n from audit_log where detail->>'importRun' = $1`, [run.id])).toBe(
      0,
    );
    expect(await count('select count(*) as n from audit_log where entity_id = $1', [run.id])).toBe(0);

    // The code of the row to create, taken by hand after the staging: refused on the key, nothing written.
    const taken = await previewOf(
      'products',
      `shop_code,code,name,price\n${code},K1,${kept.name},9\n${code},T1,Taken,8\n`,
    );
    const second = await runOf(taken.id);
    const stagedAgain = await stageImport(t.database.db, second, {
      connection: t.database.workerConnection,
      timeZone: TEST_TIME_ZONE,
    });
    await d.product({ shopId: shop.id, name: uniqueName('By hand'), price: 1, externalCode: 'T1' });
    await expect(
      publishImport(t.database.db, admin, second, stagedAgain, () => new Date()),
    ).rejects.toMatchObject({ statusCode: 409 });
    await clearStaged(t.database.db, second.id);
    expect(await count('select count(*) as n from products where id = $1 and price = 5', [kept.id])).toBe(1);
    expect(
      await count(`select count(*) as n from audit_log where detail->>'importRun' = $1`, [second.id]),
    ).toBe(0);
  });
});

describe('a run whose server stopped: the lease', () => {
  it('reports a run with a stale heartbeat interrupted, deletes its staged rows, and lets it run again', async () => {
    const shop = await d.shop({ externalCode: uniqueName('S') });
    const code = shop.externalCode as string;
    const run = await previewOf('products', `shop_code,code,name,price\n${code},L1,Leased one,3\n`);
    expect(run.status).toBe('previewed');
    // As a server killed in the middle of the run leaves it: running, staged rows, a heartbeat long ago.
    await t.database.pool.query(
      `update import_runs set status = 'running', heartbeat_at = now() - interval '1 hour' where id = $1`,
      [run.id],
    );
    await t.database.pool.query(
      `insert into import_staged_rows (run_id, seq, action, entity_id, shop_id, entity_name, values, changes)
       values ($1, 0, 'create', gen_random_uuid(), $2, 'Leased one', '{}', '{}')`,
      [run.id, shop.id],
    );
    // Another server's run, its lease fresh: still running.
    const busy = await previewOf('products', `shop_code,code,name,price\n${code},L2,Leased two,3\n`);
    await t.database.pool.query(
      `update import_runs set status = 'running', heartbeat_at = now() where id = $1`,
      [busy.id],
    );
    try {
      const response = await t.app.inject({ url: `/api/imports/${run.id}`, headers: d.admin.headers });
      const interrupted = response.json() as ImportRun;
      expect(interrupted.status).toBe('failed');
      expect(interrupted.result).toMatchObject({ interrupted: true });
      expect(interrupted.result?.error).toMatch(/interrupted/);
      expect(await count('select count(*) as n from import_staged_rows where run_id = $1', [run.id])).toBe(0);
      const other = await t.app.inject({ url: `/api/imports/${busy.id}`, headers: d.admin.headers });
      expect((other.json() as ImportRun).status).toBe('running');
      // Its lock is released: it runs again, whole.
      const again = await confirm(run.id);
      expect(again.run?.status, JSON.stringify(again.run?.result)).toBe('done');
      expect(await count('select count(*) as n from products where shop_id = $1', [shop.id])).toBe(1);
      expect(await count('select count(*) as n from import_staged_rows where run_id = $1', [run.id])).toBe(0);
      // The busy one cannot be confirmed while its server holds it.
      const refused = await d.call(d.admin, 'POST', `/api/imports/${busy.id}/confirm`, { validOnly: false });
      expect(refused.statusCode).toBe(409);
    } finally {
      await t.database.pool.query(`update import_runs set status = 'failed' where id = $1`, [busy.id]);
    }
  });
});

describe('shops: new categories and floors, and a round trip', () => {
  it('creates one category for look-alike spellings of a new name, spelt as the first row has it', async () => {
    const cat = uniqueName('Gadgets');
    const text = [
      'name,category,floor',
      `${uniqueName('Shop')},${cat},Ground Floor`,
      `${uniqueName('Shop')},${cat}\u2800,Ground Floor`,
      `${uniqueName('Shop')},${cat.toUpperCase()}\u3164,Ground Floor`,
    ].join('\n');
    const run = await previewOf('shops', text);
    expect(run.preview?.newCategories).toEqual([cat]);
    expect((await confirm(run.id)).run?.status).toBe('done');
    const { rows } = await t.database.pool.query(
      `select c.name, count(s.id)::int as shops from categories c join shops s on s.category_id = c.id
        where lower(c.name) like lower($1) group by c.name`,
      [`${cat}%`],
    );
    expect(rows).toEqual([{ name: cat, shops: 3 }]);
  });

  it('lists missing places, creates them on confirm, and an export read back changes nothing', async () => {
    const cat = uniqueName('Cat');
    const floor = uniqueName('Floor');
    const code = uniqueName('T');
    const text = `\uFEFFcode,name,category,floor,description\n${code},${uniqueName('Shop')},${cat},${floor},"=1+2, a ""quote"" — Café Zoë"\n`;
    const run = await previewOf('shops', text);
    expect(run.preview?.newCategories).toEqual([cat]);
    expect(run.preview?.newFloors).toEqual([floor]);
    expect(run.preview?.counts.created).toBe(1);
    const done = await confirm(run.id);
    expect(done.run?.status, JSON.stringify(done.run?.result)).toBe('done');
    expect(await count('select count(*) as n from categories where name = $1', [cat])).toBe(1);
    const stored = (
      await t.database.pool.query('select description from shops where external_code = $1', [code])
    ).rows[0];
    // Stored as the upload's UTF-8 bytes, read back as the same characters.
    expect(stored.description).toBe('=1+2, a "quote" — Café Zoë');

    const exported = await t.app.inject({ url: '/api/export/shops', headers: d.admin.headers });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(exported.body.startsWith('\uFEFFcode,name,category,floor')).toBe(true);
    // The formula is escaped: a spreadsheet shows it as text.
    expect(exported.body).toContain(`"'=1+2, a ""quote"" — Café Zoë"`);
    const back = await previewOf('shops', exported.body);
    expect(back.preview?.counts).toMatchObject({ created: 0, updated: 0, refused: 0 });

    const products = await t.app.inject({ url: '/api/export/products', headers: d.admin.headers });
    const productsBack = await previewOf('products', products.body);
    expect(productsBack.preview?.counts).toMatchObject({ created: 0, updated: 0, refused: 0 });
    const offers = await t.app.inject({ url: '/api/export/offers', headers: d.admin.headers });
    const offersBack = await previewOf('offers', offers.body);
    expect(offersBack.preview?.counts).toMatchObject({ created: 0, updated: 0, refused: 0 });
  });

  it('refuses a new category or floor whose name breaks a line with the place form’s message, creating none', async () => {
    const categoriesBefore = await count('select count(*) as n from categories', []);
    const floorsBefore = await count('select count(*) as n from floors', []);
    const okCat = uniqueName('Cat');
    const okFloor = uniqueName('Floor');
    const text = [
      'code,name,category,floor',
      `${uniqueName('T')},${uniqueName('Shop')},${okCat},Upper\u2028Deck`,
      `${uniqueName('T')},${uniqueName('Shop')},"Food\r\nCourt",${okFloor}`,
    ].join('\r\n');
    const run = await previewOf('shops', text);
    expect(run.status).toBe('previewed');
    expect(run.preview?.counts).toMatchObject({ created: 0, refused: 2 });
    expect(run.preview?.refused.map((row) => row.errors)).toEqual([
      [{ column: 'floor', message: 'Name must be one line' }],
      [{ column: 'category', message: 'Name must be one line' }],
    ]);
    expect(run.preview?.refused[0]?.line).toBe(2);
    expect(run.preview?.newCategories).toEqual([]);
    expect(run.preview?.newFloors).toEqual([]);
    const done = await confirm(run.id, true);
    expect(done.run?.status, JSON.stringify(done.run?.result)).toBe('done');
    expect(await count('select count(*) as n from categories', [])).toBe(categoriesBefore);
    expect(await count('select count(*) as n from floors', [])).toBe(floorsBefore);
  });

  it('exports the current filter only, with the list’s own query', async () => {
    const shop = await d.shop();
    await d.product({ shopId: shop.id, name: 'Only one' });
    const response = await t.app.inject({
      url: `/api/export/products?shopId=${shop.id}`,
      headers: d.admin.headers,
    });
    expect(response.body.trim().split('\r\n')).toHaveLength(2);
    const floors = await t.app.inject({ url: '/api/export/floors', headers: d.admin.headers });
    expect(floors.body.startsWith('\uFEFFname,level\r\n')).toBe(true);
  });
});

describe('offers', () => {
  it('refuses an end before the start with the form’s message', async () => {
    const shop = await d.shop();
    const text = [
      'shop,title,discount,start_date,end_date',
      `${shop.name},Sale,10,2026-05-02,2026-05-01`,
    ].join('\n');
    const run = await previewOf('offers', text);
    expect(run.preview?.refused).toEqual([
      { line: 2, errors: [{ column: 'end_date', message: 'End date must be after start date' }] },
    ]);
  });
});

describe('events (issue 35): export', () => {
  it('lists the approved events with their wall-clock times, RRULE, tags and exceptions; a pending one is left out', async () => {
    const shop = await d.shop();
    const event = {
      title: uniqueName('Market'),
      description: 'Fresh, local; weekly',
      shopId: shop.id,
      placeKind: 'shop',
      placeId: shop.id,
      allDay: false,
      startDate: '2026-03-21',
      startTime: '10:00',
      endDate: '2026-03-21',
      endTime: '12:30',
      tags: ['market', 'food'],
      repeat: { freq: 'weekly', days: ['sat', 'sun'], count: 6, except: ['2026-03-28'] },
    };
    expect((await d.call(d.admin, 'POST', '/api/events', event)).statusCode).toBe(201);
    const manager = await d.manager(shop.id);
    const pending = { ...event, title: uniqueName('Pending market'), repeat: null };
    expect((await d.call(manager, 'POST', '/api/events', pending)).statusCode).toBe(201);

    const response = await d.call(d.admin, 'GET', `/api/export/events?shopId=${shop.id}`);
    expect(response.statusCode).toBe(200);
    const rows = parse(response.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      {
        shop_code: '',
        shop: shop.name,
        title: event.title,
        description: event.description,
        place_kind: 'shop',
        place: shop.name,
        all_day: 'no',
        start_date: '2026-03-21',
        start_time: '10:00',
        end_date: '2026-03-21',
        end_time: '12:30',
        tags: 'market food',
        repeat: 'FREQ=WEEKLY;BYDAY=SA,SU;COUNT=6',
        except: '2026-03-28',
        status: 'scheduled',
      },
    ]);
    // A shopper may not export.
    expect((await d.call(d.user, 'GET', '/api/export/events')).statusCode).toBe(403);
  });
});

describe('numbers read as the forms read them (the import’s bad-input corpus)', () => {
  // Text that Number() reads as a number (all but '1_000') and no price or discount field takes: another
  // base, an exponent, a sign, a space, a point without digits on one side, a digit separator, a word.
  // Each is refused with the form's own message, in every numeric column of every kind (shops have
  // none), and nothing is imported.
  const NOT_NUMBERS = [
    '0x10',
    '0b11',
    '0o17',
    '1e3',
    ' 5',
    '5 ',
    '+5',
    '-0',
    '.5',
    '5.',
    '1_000',
    'Infinity',
  ];
  const formMessage = (schema: {
    safeParse(value: unknown): { error?: { issues: { message: string }[] } };
  }) => schema.safeParse(Number.NaN).error?.issues[0]?.message as string;
  const quoted = (cell: string) => `"${cell}"`;

  it('covers every numeric column of every kind: the forms’ number fields are price and discount only', () => {
    const numberFields = (schema: { shape: Record<string, unknown> }) =>
      Object.entries(schema.shape)
        .filter(([, field]) => {
          let type = field as { def: { type: string; innerType?: unknown } };
          while (type.def.innerType) type = type.def.innerType as typeof type;
          return type.def.type === 'number';
        })
        .map(([name]) => name);
    // The file's columns for them (import-check.ts): products' price, offers' discount. Shops have none.
    expect({
      shops: numberFields(ShopInput),
      products: numberFields(ProductInput),
      offers: numberFields(OfferInput),
    }).toEqual({ shops: [], products: ['price'], offers: ['discount'] });
  });

  // Each numeric column of each kind: every value refused with its form's message, nothing imported.
  const NUMERIC_COLUMNS = [
    {
      kind: 'products' as const,
      column: 'price',
      message: 'Valid price is required',
      schema: ProductInput.shape.price,
      table: 'products',
      header: 'shop_code,code,name,price',
      row: (shop: ShopDetail, value: string, i: number) =>
        `${shop.externalCode},N${i},${uniqueName('Odd')},${quoted(value)}`,
    },
    {
      kind: 'offers' as const,
      column: 'discount',
      message: 'Discount must be between 1 and 100',
      schema: OfferInput.shape.discount,
      table: 'offers',
      header: 'shop_code,title,discount,start_date,end_date',
      row: (shop: ShopDetail, value: string) =>
        `${shop.externalCode},${uniqueName('Odd')},${quoted(value)},2026-05-01,2026-05-31`,
    },
  ];

  for (const { kind, column, message, schema, table, header, row } of NUMERIC_COLUMNS)
    it(`${kind}: each ${column} is refused with "${message}", and nothing is imported`, async () => {
      const shop = await d.shop({ externalCode: uniqueName('S') });
      expect(formMessage(schema)).toBe(message);
      const text = [header, ...NOT_NUMBERS.map((value, i) => row(shop, value, i))].join('\n');
      const run = await previewOf(kind, text);
      expect(run.preview?.counts).toEqual({
        created: 0,
        updated: 0,
        unchanged: 0,
        refused: NOT_NUMBERS.length,
      });
      expect(run.preview?.refused).toEqual(
        NOT_NUMBERS.map((_value, i) => ({ line: i + 2, errors: [{ column, message }] })),
      );
      const done = await confirm(run.id, true);
      expect(done.run?.status, JSON.stringify(done.run?.result)).toBe('done');
      expect(done.run?.result?.counts).toMatchObject({ created: 0, updated: 0 });
      expect(await count(`select count(*) as n from ${table} where shop_id = $1`, [shop.id])).toBe(0);
    });

  it('products: the same price text does not update an existing product either', async () => {
    const shop = await d.shop({ externalCode: uniqueName('S') });
    const kept = await d.product({ shopId: shop.id, name: uniqueName('Kept'), price: 5, externalCode: 'K1' });
    const text = ['shop_code,code,name,price', `${shop.externalCode},K1,${kept.name},0x10`].join('\n');
    const run = await previewOf('products', text);
    expect(run.preview?.refused).toEqual([
      { line: 2, errors: [{ column: 'price', message: 'Valid price is required' }] },
    ]);
    expect((await confirm(run.id, true)).run?.status).toBe('done');
    expect(await count('select count(*) as n from products where id = $1 and price = 5', [kept.id])).toBe(1);
  });

  it('plain numbers still import, and the schema’s own messages still come for the rest', async () => {
    const shop = await d.shop();
    const text = [
      'shop,name,price',
      `${shop.name},${uniqueName('Whole')},7`,
      `${shop.name},${uniqueName('Cents')},12.50`,
      `${shop.name},${uniqueName('Three')},1.234`,
      `${shop.name},${uniqueName('Huge')},123456789012`,
      // more digits than a double holds: refused as the third decimal it is, never rounded to 20.00
      `${shop.name},${uniqueName('Long')},19.999999999999999999`,
      `${shop.name},${uniqueName('Zeros')},12.3400`,
    ].join('\n');
    const run = await previewOf('products', text);
    expect(run.preview?.counts).toMatchObject({ created: 3, refused: 3 });
    expect(run.preview?.refused).toEqual([
      { line: 4, errors: [{ column: 'price', message: 'Price can have at most 2 decimal places' }] },
      { line: 5, errors: [{ column: 'price', message: 'Price is too large' }] },
      { line: 6, errors: [{ column: 'price', message: 'Price can have at most 2 decimal places' }] },
    ]);
  });
});

describe('exported cells that a spreadsheet could split on its own separator', () => {
  it('quotes every cell and escapes a formula after a ";", a tab or a line break, so no split starts one', async () => {
    const tag = uniqueName('Q').replace(/\W/g, '');
    const semicolon = `${tag} a;=1+1`;
    const tab = `${tag} a\tb`;
    const shop = await d.shop({ name: semicolon, externalCode: `${tag}-1` });
    await d.product({ shopId: shop.id, name: tab });
    await d.product({ shopId: shop.id, name: `${tag} c;=1+1;d` });

    const shops = await t.app.inject({ url: '/api/export/shops', headers: d.admin.headers });
    const shopLine = shops.body.split('\r\n').find((line) => line.includes(tag)) as string;
    expect(shopLine.startsWith(`"${tag}-1","${tag} a;'=1+1",`)).toBe(true);

    const products = await t.app.inject({
      url: `/api/export/products?shopId=${shop.id}`,
      headers: d.admin.headers,
    });
    const lines = products.body.split('\r\n').filter((line) => line.includes(tag));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      // Every cell quoted, an empty one too: each line starts inside quotes, and each ";" and tab is
      // inside a pair of quotes however the line is split.
      const cells = line.match(/"(?:[^"]|"")*"|[^,]+|(?<=,)(?=,|$)/g) ?? [];
      expect(cells.length, line).toBe(8);
      for (const cell of cells) expect(cell, line).toMatch(/^"(?:[^"]|"")*"$/);
    }
    expect(lines.some((line) => line.includes(`,"${tab}",`))).toBe(true);
    expect(lines.some((line) => line.includes(`,"${tag} c;'=1+1;d",`))).toBe(true);
    // Split as a spreadsheet set up for ";" or tab would (a quote counts only at a field's start): no
    // piece starts a formula.
    for (const line of [shopLine, ...lines])
      for (const piece of line.split(/[;\t]/)) expect(piece, line).not.toMatch(/^[=+\-@]/);
    // Read back as an import, nothing changes.
    const back = await previewOf('products', products.body);
    expect(back.preview?.counts).toMatchObject({ created: 0, updated: 0, unchanged: 2, refused: 0 });
  });
});

describe('a NUL byte in a file', () => {
  it.each([
    ['in the first row', 'shop,name,price\nA,b\u0000c,1\n', 2],
    ['in a later row', `shop,name,price\n${'A,b,1\n'.repeat(300)}A,"two\nlines",1\nA,x\u0000,1\n`, 304],
    ['in the header', 'shop,na\u0000me,price\nA,b,1\n', 1],
  ])('%s: the upload is refused with the line, and no run is stored', async (_label, text, line) => {
    const before = await count('select count(*) as n from import_runs', []);
    const response = await upload('products', Buffer.from(text, 'utf8'));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.code).toBe('BAD_FILE');
    expect(response.json().error.message).toBe(
      `Line ${line} holds a NUL character (a zero byte), which a CSV file cannot hold; remove it (or save the file as "CSV UTF-8") and upload it again`,
    );
    expect(await count('select count(*) as n from import_runs', [])).toBe(before);
  });
});

describe('bad files are 4xx with a clear message, never 5xx', () => {
  const cases: [string, string | Buffer, number, string][] = [
    ['semicolons', 'name;price;shop\na;1;b\n', 400, 'The columns are separated by semicolons'],
    ['unknown column', 'name,price,shop,colour\n', 400, 'Unknown column: colour'],
    ['missing column', 'name,shop\n', 400, 'Missing column: price'],
    ['open quote', 'name,price,shop\n"a,1,b\n', 400, 'A quote opened on line 2 is never closed'],
    ['Latin-1', Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xe9, 0x0a]), 400, 'The file is not UTF-8 text'],
    ['UTF-16', Buffer.from([0xff, 0xfe, 0x6e, 0x00]), 400, 'The file is UTF-16 text'],
    ['empty', '', 400, ''],
  ];
  for (const [name, body, status, message] of cases) {
    it(name, async () => {
      const response = await upload('products', body);
      if (response.statusCode === 202) {
        const run = await settled((response.json() as ImportRun).id);
        expect(run.status).toBe('failed');
        expect(run.result?.error).toContain(message);
      } else {
        expect(response.statusCode, response.body).toBe(status);
        expect(response.json().error.message).toContain(message);
      }
    });
  }

  it('a file over the limit is 413', async () => {
    const response = await upload('products', Buffer.alloc(41 * 1024 * 1024, 0x61));
    expect(response.statusCode).toBe(413);
  });

  it('another content type is 415, and a shopper may not import or export', async () => {
    expect((await upload('products', 'name,price,shop\n', 'f.csv', 'text/plain')).statusCode).toBe(415);
    const asUser = await t.app.inject({
      method: 'POST',
      url: '/api/imports?kind=products',
      headers: { ...d.user.headers, 'content-type': 'text/csv' },
      payload: 'name,price,shop\n',
    });
    expect(asUser.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/export/products', headers: d.user.headers })).statusCode).toBe(
      403,
    );
  });
});

describe('many imports at once', () => {
  it('checks two at a time on a server and answers a third 503 with Retry-After, storing nothing for it', async () => {
    const shop = await d.shop({ externalCode: uniqueName('S') });
    // Files large enough that their checks are still going when the third arrives.
    const file = (tag: string) =>
      `shop_code,name,price\n${Array.from({ length: 20_000 }, (_, i) => `${shop.externalCode},${tag} ${i},1.00`).join('\n')}\n`;
    const runsBefore = await count('select count(*)::int as n from import_runs', []);
    const answers = await Promise.all(
      ['A', 'B', 'C'].map((tag) => upload('products', file(tag), `${tag}.csv`)),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses, answers.map((answer) => answer.body.slice(0, 200)).join('\n')).toEqual([202, 202, 503]);
    const refused = answers.find((answer) => answer.statusCode === 503);
    expect(refused?.headers['retry-after']).toBeDefined();
    expect(refused?.json().error.code).toBe('IMPORTS_BUSY');
    expect(await count('select count(*)::int as n from import_runs', [])).toBe(runsBefore + 2);
    // Once they are checked, another is taken.
    for (const answer of answers.filter((a) => a.statusCode === 202))
      await settled((answer.json() as ImportRun).id);
    const fourth = await upload('products', file('D'), 'D.csv');
    expect(fourth.statusCode).toBe(202);
    await settled((fourth.json() as ImportRun).id);
  });
});

describe('the check’s own connection', () => {
  const checkConnections = () =>
    count(
      'select count(*) as n from pg_stat_activity where application_name = $1 and datname = current_database()',
      [CHECK_APPLICATION_NAME],
    );
  /** Waits until PostgreSQL lists no connection of a check (a closed socket takes its backend a moment). */
  async function noCheckConnectionLeft(): Promise<void> {
    for (let i = 0; i < 100 && (await checkConnections()) > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await checkConnections()).toBe(0);
  }
  /** Starts a check with `request`; resolves once it has reported progress, i.e. is running. */
  async function runningCheck(request: Parameters<typeof checkInChild>[0]) {
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const check = checkInChild(request, () => started());
    await running;
    return check;
  }
  async function storedRun(rows: number): Promise<{ id: string; code: string }> {
    const shop = await d.shop({ externalCode: uniqueName('S') });
    const code = shop.externalCode as string;
    const lines = Array.from({ length: rows }, (_, i) => `${code},W${i},Worker row ${i},${i + 1}`);
    const run = await previewOf('products', `shop_code,code,name,price\n${lines.join('\n')}\n`);
    expect(run.preview?.counts.created).toBe(rows);
    return { id: run.id, code };
  }
  /** A preview's check of `file`, handed to a check process as an upload is (the process stores it). */
  const checkUpload = (
    runId: string,
    connection: WorkerConnection,
    file: string,
    progress?: (rows: number) => void,
  ) =>
    checkInChild(
      {
        runId,
        kind: 'products',
        stage: false,
        connection,
        timeZone: TEST_TIME_ZONE,
        file: new TextEncoder().encode(file),
      },
      progress,
    );

  it('stores the upload, answers its preview with the form’s messages and reports its progress', async () => {
    const connection = t.database.workerConnection;
    const { id } = await storedRun(3);
    const file = 'shop,name,price\nNo such shop,Lamp,12.50\n';
    const progress: number[] = [];
    const result = await checkUpload(id, connection, file, (rows) => progress.push(rows)).result;
    expect(result.counts).toEqual({ created: 0, updated: 0, unchanged: 0, refused: 1 });
    expect(result.refused).toEqual([
      { line: 2, errors: [{ column: 'shop', message: 'Unknown shop "No such shop"' }] },
    ]);
    expect(progress.at(-1)).toBe(1);
    const stored = (await t.database.pool.query('select content from import_runs where id = $1', [id]))
      .rows[0].content as string;
    expect(stored).toBe(file);
    // The file's own problem crosses the process as the form would say it: a 400, not a failed check.
    await expect(checkUpload(id, connection, '').result).rejects.toMatchObject({
      statusCode: 400,
      message: 'The file is empty',
    } satisfies Partial<HttpError>);
    await noCheckConnectionLeft();
  });

  it('reads the file, matches and stages over the check’s own connection, and closes it', async () => {
    const connection = t.database.workerConnection;
    const { id, code } = await storedRun(1200);
    // The upload's bytes, stored by the preview's check over its connection, exactly as sent.
    const file = (await t.database.pool.query('select content from import_runs where id = $1', [id])).rows[0]
      .content as string;
    expect(file.startsWith(`shop_code,code,name,price\n${code},W0,Worker row 0,1\n`)).toBe(true);
    expect(file.endsWith(`${code},W1199,Worker row 1199,1200\n`)).toBe(true);
    const result = await checkInChild({
      runId: id,
      kind: 'products',
      stage: true,
      connection,
      timeZone: TEST_TIME_ZONE,
    }).result;
    expect(result.counts).toEqual({ created: 1200, updated: 0, unchanged: 0, refused: 0 });
    expect(await count('select count(*) as n from import_staged_rows where run_id = $1', [id])).toBe(1200);
    expect(
      await count(`select count(*) as n from import_staged_rows where run_id = $1 and seq = 1199`, [id]),
    ).toBe(1);
    await clearStaged(t.database.db, id);
    await noCheckConnectionLeft();
  });

  it('keeps one process for the next check: a file whose check failed before storing it is never read as the next one’s', async () => {
    const connection = t.database.workerConnection;
    const { id, code } = await storedRun(3);
    await endWaitingCheckProcesses();
    // More than a pipe holds at once (64 KB), so most of it waits in the pipe when the first check fails.
    const leftBehind = `shop_code,code,name,price\n${`${code},LEFT,Left behind,1\n`.repeat(20_000)}`;
    const refused = { connectionString: 'postgres://nobody@127.0.0.1:1/none' };
    const first = checkUpload(id, refused, leftBehind);
    await expect(first.result).rejects.toThrow(/ECONNREFUSED/);
    const next = `shop_code,code,name,price\n${Array.from({ length: 5 }, (_, i) => `${code},N${i},Next ${i},${i + 1}`).join('\n')}\n`;
    const second = checkUpload(id, connection, next);
    const result = await second.result;
    expect(second.pid).toBe(first.pid);
    expect(result.counts).toEqual({ created: 5, updated: 0, unchanged: 0, refused: 0 });
    const stored = (await t.database.pool.query('select content from import_runs where id = $1', [id]))
      .rows[0].content as string;
    expect(stored).toBe(next);
    await noCheckConnectionLeft();
  });

  it('a file refused mid-way fails with the parser’s 400 and leaves its process for the next check', async () => {
    const connection = t.database.workerConnection;
    const { id, code } = await storedRun(3);
    await endWaitingCheckProcesses();
    // Two parts of the file (512 K characters each): the parser refuses line 101, in the first.
    const good = Array.from({ length: 100 }, (_, i) => `${code},G${i},Good ${i},1`);
    const tail = `${code},T,${'x'.repeat(200)},1\n`.repeat(4_000);
    const broken = `shop_code,code,name,price\n${good.join('\n')}\n${code},Q,"never closed,1\n${tail}`;
    const first = checkUpload(id, connection, broken);
    await expect(first.result).rejects.toMatchObject({ statusCode: 400 });
    const next = `shop_code,code,name,price\n${code},N0,Next 0,1\n`;
    const second = checkUpload(id, connection, next);
    expect((await second.result).counts.created).toBe(1);
    expect(second.pid).toBe(first.pid);
    await noCheckConnectionLeft();
  });

  it('fails the check, never hangs, when its connection is lost or the server stops it; none stays open', async () => {
    const connection = t.database.workerConnection;
    const { id } = await storedRun(6000);
    async function connectionLost() {
      const lost = await runningCheck({
        runId: id,
        kind: 'products',
        stage: true,
        connection,
        timeZone: TEST_TIME_ZONE,
      });
      const ended = await count(
        'select count(pg_terminate_backend(pid)) as n from pg_stat_activity where application_name = $1 and datname = current_database()',
        [CHECK_APPLICATION_NAME],
      );
      expect(ended).toBe(1);
      await expect(lost.result).rejects.toThrow(/The check (failed|stopped)/);
      await noCheckConnectionLeft();
    }

    // The connection ended by the database while the check runs.
    await connectionLost();

    // The server closing during the check: the check's process ends, and its connection with it.
    const stopped = await runningCheck({
      runId: id,
      kind: 'products',
      stage: false,
      connection,
      timeZone: TEST_TIME_ZONE,
    });
    expect(await checkConnections()).toBe(1);
    await stopped.stop();
    await expect(stopped.result).rejects.toThrow(/stopped/);
    await noCheckConnectionLeft();
    await clearStaged(t.database.db, id);
  });
});

describe('a mall with more shops and offers than one page of the check’s reads', () => {
  it('matches rows against every shop and offer, not only the first 2,000 by id', async () => {
    const tag = uniqueName('PAGE').replace(/\W/g, '');
    await d.shop();
    // 2,100 shops and, on one of them, 2,100 offers: the check reads both in pages of 2,000 by id.
    await t.database.pool.query(
      `insert into shops (name, external_code, category_id, floor_id)
       select $1 || ' shop ' || n, $1 || '-' || n, s.category_id, s.floor_id
       from generate_series(1, 2100) n, (select category_id, floor_id from shops limit 1) s`,
      [tag],
    );
    const holder = `${tag}-1`;
    await t.database.pool.query(
      `insert into offers (shop_id, title, discount, start_date, end_date)
       select (select id from shops where external_code = $2), $1 || ' offer ' || n, 10, '2026-01-01', '2026-12-31'
       from generate_series(1, 2100) n`,
      [tag, holder],
    );
    const lines = ['shop_code,name,price,offer'];
    for (let n = 1; n <= 2100; n++) lines.push(`${tag}-${n},${tag} product ${n},1.50,`);
    for (let n = 1; n <= 2100; n++) lines.push(`${holder},${tag} offered ${n},2.00,${tag} offer ${n}`);
    const run = await previewOf('products', `${lines.join('\n')}\n`);
    expect(run.status).toBe('previewed');
    // With the first page only, about 100 shop codes and 100 offers would be unknown.
    expect(run.preview?.refused.slice(0, 3)).toEqual([]);
    expect(run.preview?.counts).toMatchObject({ created: 4200, refused: 0 });
  }, 240_000);
});

describe('a file named in any script', () => {
  it.each(['商店 ☕.csv', 'Café "best".csv', 'ㅤ.csv'])(
    'its refused rows download as "%s" less .csv, plus -errors.csv',
    async (fileName) => {
      const run = await previewOf('products', 'shop,name,price\nNo such shop,Lamp,1\n', fileName);
      expect(run.preview?.counts.refused).toBe(1);
      const errors = await t.app.inject({ url: `/api/imports/${run.id}/errors`, headers: d.admin.headers });
      expect(errors.statusCode, errors.body).toBe(200);
      const disposition = String(errors.headers['content-disposition']);
      const name = `${fileName.replace(/\.csv$/, '')}-errors.csv`;
      // the name itself for every browser of this century, an ASCII stand-in for the rest
      const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? '';
      expect(decodeURIComponent(encoded)).toBe(name);
      expect(/filename="([\x20-\x7e]*)"/.exec(disposition)?.[1]).toBe(
        name.replace(/[^\x20-\x7e]|["\\]/g, '_'),
      );
    },
  );
});
