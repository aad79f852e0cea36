// The audit log under attack: many writes of one record at once (no lost or interleaved entry), many
// deletes of one shop at once (one entry), a delete taking thousands of records with it, far pages and
// other spellings of its routes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Directory, openDirectory } from '../../test/catalog-fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => t.close());
const entries = async (id: string) =>
  (
    await t.database.pool.query('select action, changes from audit_log where entity_id = $1 order by id', [
      id,
    ])
  ).rows;

it('100 PATCHes of one product at once: all answered, one entry each, the last entry is the stored price', async () => {
  const product = await d.product();
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      d.call(d.admin, 'PATCH', `/api/products/${product.id}`, { price: 100 + i }),
    ),
  );
  expect(answers.map((a) => a.statusCode).filter((s) => s !== 200)).toEqual([]);
  const rows = (await entries(product.id)).filter((r) => r.action === 'update');
  expect(rows).toHaveLength(100);
  const stored = (await t.database.pool.query('select price from products where id = $1', [product.id]))
    .rows[0].price;
  expect(rows.at(-1).changes.price.after).toBe(stored);
  // each entry's before is the previous entry's after: no lost or interleaved update
  for (let i = 1; i < rows.length; i++)
    expect(rows[i].changes.price.before).toBe(rows[i - 1].changes.price.after);
});

it('30 deletes of one shop at once: one 204, the rest 404, one entry', async () => {
  const shop = await d.shop();
  await Promise.all(Array.from({ length: 20 }, () => d.product({ shopId: shop.id })));
  const answers = await Promise.all(
    Array.from({ length: 30 }, () => d.call(d.admin, 'DELETE', `/api/shops/${shop.id}`)),
  );
  const codes = answers.map((a) => a.statusCode).sort();
  expect(codes.filter((c) => c === 204)).toHaveLength(1);
  expect(codes.filter((c) => c === 404)).toHaveLength(29);
  const rows = await entries(shop.id);
  expect(rows.filter((r) => r.action === 'delete')).toHaveLength(1);
});

it('a shop with 3,000 products deleted: one entry naming all of them', async () => {
  const shop = await d.shop();
  await t.database.pool.query(
    "insert into products (shop_id, name, price) select $1, 'Bulk ' || g, 1 from generate_series(1, 3000) g",
    [shop.id],
  );
  expect((await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}`)).statusCode).toBe(204);
  const [row] = (
    await t.database.pool.query("select detail from audit_log where entity_id = $1 and action = 'delete'", [
      shop.id,
    ])
  ).rows;
  expect(row.detail.products).toHaveLength(3000);
});

it('far pages and other spellings of the audit route', async () => {
  const far = await t.app.inject({ url: '/api/audit?page=100000&pageSize=100', headers: d.admin.headers });
  expect(far.statusCode).toBe(200);
  expect(far.json().items).toEqual([]);
  for (const url of ['/%61pi/audit', '/api/%61udit', '/api/audit?', '/api/audit/actors#x'])
    expect((await t.app.inject({ url, headers: d.user.headers })).statusCode, url).toBe(403);
});
