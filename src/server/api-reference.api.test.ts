// docs/api.md's route table is generated (`npm run docs:api`, src/server/api-reference.ts): this fails
// when the file is behind the app's routes — a route added, removed, or its permission, cache, inputs or
// answer changed without running the script.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES_END, ROUTES_START, routeTable, tableRows, whoMayCall, withRouteTable } from './api-reference';
import { createTestApp, type TestApp } from './test/harness';

const API_MD = path.join(import.meta.dirname, '..', '..', 'docs', 'api.md');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("docs/api.md's generated route table", () => {
  it('is up to date with the routes the app registers (run `npm run docs:api` when it is not)', () => {
    const written = fs.readFileSync(API_MD, 'utf8');
    const generated = withRouteTable(written, routeTable(t.app));
    // Cells compared trimmed: the formatter's padding alone is no difference.
    expect(tableRows(written)).toEqual(tableRows(generated));
  });

  it('lists every route of the OpenAPI document once, with who may call it and its cache', () => {
    const rows = tableRows(withRouteTable(`${ROUTES_START}\n${ROUTES_END}`, routeTable(t.app)));
    const [header, ...routes] = rows;
    expect(header).toEqual([
      'Method',
      'Path',
      'Who',
      'Permission',
      'Takes',
      'Success',
      'Errors',
      'Cached by',
    ]);
    const documented = t.app.routeTable.filter(
      (route) => route.url.startsWith('/api/') && !route.schema?.hidden,
    );
    expect(routes.map((row) => `${row[0]} ${row[1]}`).sort()).toEqual(
      documented
        .filter((route) => route.method !== 'OPTIONS')
        .map((route) => `${route.method} \`${route.url}\``)
        .sort(),
    );
    const row = (key: string) => routes.find((cells) => `${cells[0]} ${cells[1]}` === key);
    expect(row('GET `/api/shops`')).toEqual([
      'GET',
      '`/api/shops`',
      // a visitor too, while the public directory is on (docs/decisions/034)
      'anyone (public directory)',
      '`read shop`',
      'query `page?` `pageSize?` `q?` `categoryId?` `floorId?` `openAt?`',
      '`200`',
      '—',
      '`catalog`',
    ]);
    expect(row('POST `/api/categories`')?.slice(2)).toEqual([
      'admin',
      '`create category`',
      // the store type is optional (docs/decisions/034)
      'body `{ name, schemaType? }`',
      '`201`',
      '`409`',
      '—',
    ]);
    // A DELETE declares its 204 (no body) and its own errors; the ones every route gets are not listed.
    expect(row('DELETE `/api/shops/:id`')?.slice(5, 7)).toEqual(['`204`', '`404`']);
    expect(row('GET `/api/mall-hours`')?.[2]).toBe('anyone');
    // The interactive reference's own routes are not API routes.
    expect(routes.some((cells) => cells[1]?.includes('/api/docs'))).toBe(false);
  });

  it('notices a missing or changed row', () => {
    const generated = withRouteTable(`${ROUTES_START}\n${ROUTES_END}`, routeTable(t.app));
    const lines = generated.split('\n');
    const withoutOne = lines.filter((line) => !line.includes('`/api/stats`')).join('\n');
    expect(tableRows(withoutOne)).not.toEqual(tableRows(generated));
    const changed = generated.replace('`read stats`', '`read shop`');
    expect(tableRows(changed)).not.toEqual(tableRows(generated));
    // Padding is not a change.
    expect(tableRows(generated.replaceAll(' | ', '   |   '))).toEqual(tableRows(generated));
  });

  it('says who may call a route from the one permission policy', () => {
    expect(whoMayCall(undefined)).toBe('anyone');
    expect(whoMayCall({ action: 'read', resource: 'shop' })).toBe('anyone (public directory)');
    // Every signed-in person, never a visitor: their own account, an invite to manage a shop.
    expect(whoMayCall({ action: 'update', resource: 'account' })).toBe('signed in');
    expect(whoMayCall({ action: 'read', resource: 'membership' })).toBe('signed in');
    expect(whoMayCall({ action: 'delete', resource: 'shop' })).toBe('admin');
    expect(whoMayCall({ action: 'update', resource: 'product' })).toBe('shop manager (own shop), admin');
    // A shop's insights are its managers' too; the mall's (asked with no shop) the office's alone.
    expect(whoMayCall({ action: 'read', resource: 'insights' })).toBe('shop manager (own shop), admin');
    expect(whoMayCall({ action: 'read', resource: 'insights', record: {} })).toBe('admin');
  });
});
