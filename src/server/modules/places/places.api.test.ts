// Categories and floors (/api/categories, /api/floors): the same routes for both, so every test runs
// for each of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_TYPES } from '../../../shared/mall-profile';
import type { Category, Place } from '../../../shared/place';
import type { Shop, ShopDetail } from '../../../shared/shop';
import { placeNameKeys } from '../../db/place-name-keys';
import {
  type Directory,
  expectError,
  expectFieldError,
  openDirectory,
  uniqueName,
  unknownId,
} from '../../test/catalog-fixtures';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

interface Kind {
  path: '/api/categories' | '/api/floors';
  table: 'categories' | 'floors';
  noun: 'category' | 'floor';
  /** The shop's fields that point at it. */
  idField: 'categoryId' | 'floorId';
  nameField: 'category' | 'floor';
}

const kinds: Kind[] = [
  {
    path: '/api/categories',
    table: 'categories',
    noun: 'category',
    idField: 'categoryId',
    nameField: 'category',
  },
  { path: '/api/floors', table: 'floors', noun: 'floor', idField: 'floorId', nameField: 'floor' },
];

/**
 * Names that look like `name`, which starts with "Electronics": one trick each — case, padding, invisible
 * characters, compatibility forms, letters of other scripts (docs/decisions/011).
 */
function lookAlikes(name: string): string[] {
  const rest = name.slice('Electronics'.length);
  const word = (look: string) => `${look}${rest}`;
  return [
    name.toUpperCase(),
    name.toLowerCase(),
    `  ${name}  `,
    word('Electronics\u00AD'), // soft hyphen
    word('Elec\u00ADtronics'),
    word('Elec\u200Ctronics'), // zero-width non-joiner
    word('Elec\u034Ftronics'), // combining grapheme joiner
    word('Elec\u3164tronics'), // Hangul filler
    word('Electronics\uFE0F'), // variation selector
    word('Elec\u200Btronics'), // zero-width space (removed on input)
    word('\uFF25lectronics'), // fullwidth E
    word('\uFF25\uFF4C\uFF45\uFF43\uFF54\uFF52\uFF4F\uFF4E\uFF49\uFF43\uFF53'), // all fullwidth
    word('\u{1D404}lectronics'), // mathematical bold capital E
    word('\u2130lectronics'), // script capital E
    word('Electronic\u0455'), // Cyrillic dze
    word('Ele\u0441tr\u043Eni\u0441s'), // Cyrillic es and o
    word('\u0395lectronics'), // Greek capital epsilon
    word('\u0415LECTR\u041ENICS'), // capitals, with Cyrillic Е and О
    word('Electr0nics'), // digit zero
  ];
}

describe.each(kinds)('$path', ({ path, table, noun, idField, nameField }) => {
  const create = (name?: string) => (noun === 'category' ? d.category(name) : d.floor(name));
  const post = (payload: unknown) => d.call(d.admin, 'POST', path, payload);
  const patch = (id: string, payload: unknown) => d.call(d.admin, 'PATCH', `${path}/${id}`, payload);
  const remove = (id: string) => d.call(d.admin, 'DELETE', `${path}/${id}`);
  const get = (id: string) => d.call(d.user, 'GET', `${path}/${id}`);
  const list = async () => (await d.call(d.user, 'GET', path)).json().items as Place[];
  const duplicateMessage = `A ${noun} with this name already exists`;

  describe('create and read', () => {
    it('takes names holding "$a", the audit entry\'s quote tag, and logs them as they are', async () => {
      // The audit insert dollar-quotes its values with $a$ (write-path.ts): a name ending in "$a" once ended
      // that quote early, a 500 and SQL text from the name.
      for (const ending of ['$a', ' $a', '$a$', '$$a']) {
        const name = uniqueName(`Dollar${ending}`).replace(/(\S+)$/, `$1${ending}`);
        const created = await post({ name });
        expect(created.statusCode, name).toBe(201);
        const renamed = `${name}x $a`;
        const patched = await patch((created.json() as Place).id, { name: renamed });
        expect(patched.statusCode, renamed).toBe(200);
        expect((patched.json() as Place).name).toBe(renamed);
      }
    });

    it('creates one with its name trimmed and answers it with shopCount 0', async () => {
      const name = uniqueName('Trimmed');
      const response = await post({ name: `   ${name}\t ` });
      expect(response.statusCode).toBe(201);
      const place = response.json() as Place;
      expect(place).toEqual({
        id: expect.any(String),
        name,
        createdAt: expect.any(String),
        shopCount: 0,
        // A floor added by name only goes one above the highest (docs/decisions/018); a category is a
        // plain Store to search engines until an admin says more (docs/decisions/034).
        ...(noun === 'floor' ? { level: expect.any(Number) } : { schemaType: 'Store' }),
      });
      expect(Date.parse(place.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      expect((await d.row(table, place.id))?.name).toBe(name);
      expect((await get(place.id)).json()).toEqual(place);
    });

    it('lists every one in order (categories by name, floors by level), with how many shops use each', async () => {
      const prefix = uniqueName('Listed');
      const b = await create(`${prefix} b`);
      const a = await create(`${prefix} a`);
      const c = await create(`${prefix} c`);
      await d.shop({ [idField]: b.id });
      await d.shop({ [idField]: b.id });
      await d.shop({ [idField]: c.id });

      const items = await list();
      expect(items).toHaveLength(await d.count(table));
      const mine = items.filter((item) => item.name.startsWith(prefix));
      // Floors added without a level go one above the highest: b, then a, then c.
      expect(mine.map((item) => [item.name, item.shopCount])).toEqual(
        noun === 'category'
          ? [
              [a.name, 0],
              [b.name, 2],
              [c.name, 1],
            ]
          : [
              [b.name, 2],
              [a.name, 0],
              [c.name, 1],
            ],
      );
      expect((await get(b.id)).json().shopCount).toBe(2);
    });

    it('answers 404 for an id that does not exist', async () => {
      const id = unknownId();
      expectError(await get(id), 404, 'NOT_FOUND', `This ${noun} does not exist`);
      expectError(await patch(id, { name: uniqueName() }), 404, 'NOT_FOUND', `This ${noun} does not exist`);
      expectError(await remove(id), 404, 'NOT_FOUND', `This ${noun} does not exist`);
    });

    it('keeps emoji, Arabic and Hindi names exactly as sent', async () => {
      for (const name of [`🛍️👩‍💻 ${uniqueName()}`, `متجر الأزياء ${uniqueName()}`, `कपड़े ${uniqueName()}`]) {
        const response = await post({ name });
        expect(response.statusCode).toBe(201);
        expect(response.json().name).toBe(name);
        const { id } = response.json() as Place;
        expect((await d.row(table, id))?.name).toBe(name);
        expect((await get(id)).json().name).toBe(name);
      }
    });
  });

  describe('validation', () => {
    it.each([
      ['missing', {}, 'Name is required'],
      ['empty', { name: '' }, 'Name is required'],
      ['only spaces', { name: '   ' }, 'Name is required'],
      ['only tabs and newlines', { name: '\t\n ' }, 'Name is required'],
      [
        'only characters that show nothing',
        { name: '\u3164\u115F\u00AD\u200C\u034F\u2800' },
        'Name is required',
      ],
      ['null', { name: null }, 'Name is required'],
      ['a number', { name: 12 }, 'Name is required'],
      ['61 characters', { name: 'x'.repeat(61) }, 'Name must be at most 60 characters'],
      ['10,000 characters', { name: 'x'.repeat(10_000) }, 'Name must be at most 60 characters'],
    ])('refuses a name that is %s, writing nothing', async (_label, payload, message) => {
      const before = await d.count(table);
      expectFieldError(await post(payload), 'name', message);
      expect(await d.count(table)).toBe(before);
    });

    it('accepts a 60-character name', async () => {
      const name = `${uniqueName()} `.padEnd(60, 'y');
      const response = await post({ name });
      expect(response.statusCode).toBe(201);
      expect(response.json().name).toBe(name);
    });

    it('refuses unknown fields, writing nothing', async () => {
      const before = await d.count(table);
      for (const extra of [{ id: unknownId() }, { shopCount: 3 }, { createdAt: '2020-01-01T00:00:00Z' }]) {
        const response = await post({ name: uniqueName('Extra'), ...extra });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.code).toBe('VALIDATION');
      }
      expect(await d.count(table)).toBe(before);
    });

    it('refuses a blank or unknown-field rename, leaving the row as it was', async () => {
      const place = await create();
      const before = await d.row(table, place.id);
      expectFieldError(await patch(place.id, { name: '  ' }), 'name', 'Name is required');
      expectFieldError(await patch(place.id, {}), 'name', 'Name is required');
      expect((await patch(place.id, { name: uniqueName(), extra: 1 })).statusCode).toBe(400);
      expect(await d.row(table, place.id)).toEqual(before);
    });
  });

  describe('unique names', () => {
    it('refuses a name that exists, in any case or padding, with 409 DUPLICATE', async () => {
      const name = uniqueName('Dup');
      await create(name);
      const before = await d.count(table);
      for (const again of [name, name.toUpperCase(), name.toLowerCase(), `  ${name}  `]) {
        expectError(await post({ name: again }), 409, 'DUPLICATE', duplicateMessage, 'name');
      }
      expect(await d.count(table)).toBe(before);
    });

    it('compares accented letters in any case too', async () => {
      const name = `Électronique ${uniqueName()}`;
      await create(name);
      const before = await d.count(table);
      expectError(await post({ name: name.toUpperCase() }), 409, 'DUPLICATE', duplicateMessage, 'name');
      expectError(await post({ name: name.toLowerCase() }), 409, 'DUPLICATE', duplicateMessage, 'name');
      expect(await d.count(table)).toBe(before);
    });

    it('stores names NFC-normalised, so a decomposed é is the same name as a precomposed one', async () => {
      const suffix = uniqueName();
      const response = await post({ name: `Cafe\u0301 ${suffix}` });
      expect(response.statusCode).toBe(201);
      expect(response.json().name).toBe(`Caf\u00e9 ${suffix}`);
      expectError(await post({ name: `Caf\u00e9 ${suffix}` }), 409, 'DUPLICATE', duplicateMessage, 'name');
    });

    it("refuses renaming to another one's name (any case), leaving the row; its own name in another case is fine", async () => {
      const taken = await create();
      const place = await create();
      const before = await d.row(table, place.id);
      expectError(
        await patch(place.id, { name: taken.name.toUpperCase() }),
        409,
        'DUPLICATE',
        duplicateMessage,
        'name',
      );
      expect(await d.row(table, place.id)).toEqual(before);

      const renamed = await patch(place.id, { name: place.name.toUpperCase() });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().name).toBe(place.name.toUpperCase());
    });

    it('refuses a name that only looks like one that exists: invisible characters, other forms and scripts', async () => {
      const name = uniqueName('Electronics');
      await create(name);
      const before = await d.count(table);
      for (const again of lookAlikes(name)) {
        expectError(await post({ name: again }), 409, 'DUPLICATE', duplicateMessage, 'name');
      }
      expect(await d.count(table)).toBe(before);
    });

    it('refuses renaming to a look-alike of another name, leaving the row as it was', async () => {
      const taken = await create(uniqueName('Electronics'));
      const place = await create();
      const before = await d.row(table, place.id);
      for (const again of lookAlikes(taken.name)) {
        expectError(await patch(place.id, { name: again }), 409, 'DUPLICATE', duplicateMessage, 'name');
      }
      expect(await d.row(table, place.id)).toEqual(before);
    });

    it('keeps names that differ apart, in any script', async () => {
      const suffix = uniqueName('');
      for (const name of [`Electronics${suffix}`, `Electronic${suffix}`, `Еда${suffix}`, `Εδώ${suffix}`]) {
        const response = await post({ name });
        expect(response.statusCode, `${name}: ${response.body}`).toBe(201);
      }
    });

    it('20 look-alikes of one new name sent at once: one is created, 19 are duplicates, one row', async () => {
      const name = uniqueName('Electronics');
      const variants = lookAlikes(name).slice(0, 19);
      variants.push(name);
      expect(variants).toHaveLength(20);
      const key = placeNameKeys(name).nameGlyphKey;
      for (const variant of variants) expect(placeNameKeys(variant.trim()).nameGlyphKey, variant).toBe(key);

      const before = await d.count(table);
      const responses = await Promise.all(variants.map((variant) => post({ name: variant })));
      const created = responses.filter((response) => response.statusCode === 201);
      expect(created).toHaveLength(1);
      for (const response of responses) {
        if (response.statusCode !== 201) expectError(response, 409, 'DUPLICATE', duplicateMessage, 'name');
      }
      expect(await d.count(table)).toBe(before + 1);
      const stored = await t.database.pool.query(`select name from ${table} where name_glyph_key = $1`, [
        key,
      ]);
      expect(stored.rows).toEqual([{ name: created[0]?.json().name }]);
    });

    it('serves the next request normally right after a refused duplicate (the connection survives)', async () => {
      const existing = await create();
      for (let i = 0; i < 3; i++) {
        expect((await post({ name: existing.name })).statusCode).toBe(409);
        const next = await post({ name: uniqueName('After') });
        expect(next.statusCode, next.body).toBe(201);
        expect((await d.row(table, next.json().id))?.name).toBe(next.json().name);
        expect((await patch(existing.id, { name: next.json().name })).statusCode).toBe(409);
        const read = await d.call(d.user, 'GET', path);
        expect(read.statusCode, read.body).toBe(200);
        expect((await d.call(d.user, 'GET', '/api/shops')).statusCode).toBe(200);
      }
    });
  });

  describe('rename', () => {
    it('shows the new name at once on every shop that uses it, in the list and in the detail', async () => {
      const place = await create();
      const first = await d.shop({ [idField]: place.id });
      const second = await d.shop({ [idField]: place.id });
      expect(first[nameField]).toBe(place.name);

      const newName = uniqueName('Renamed');
      const response = await patch(place.id, { name: `  ${newName} ` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ...place, name: newName, shopCount: 2 });
      expect((await d.row(table, place.id))?.name).toBe(newName);

      const page = await d.call(d.user, 'GET', `/api/shops?${idField}=${place.id}`);
      const shops = page.json().items as Shop[];
      expect(shops.map((shop) => shop.id).sort()).toEqual([first.id, second.id].sort());
      for (const shop of shops) expect(shop[nameField]).toBe(newName);
      for (const id of [first.id, second.id]) {
        const detail = (await d.call(d.user, 'GET', `/api/shops/${id}`)).json() as ShopDetail;
        expect(detail[nameField]).toBe(newName);
        expect(detail[idField]).toBe(place.id);
      }
    });
  });

  describe('delete', () => {
    it('deletes an unused one: 204, then 404', async () => {
      const place = await create();
      const before = await d.count(table);
      const response = await remove(place.id);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(await d.count(table)).toBe(before - 1);
      expect(await d.row(table, place.id)).toBeUndefined();
      expect((await get(place.id)).statusCode).toBe(404);
      expect((await remove(place.id)).statusCode).toBe(404);
    });

    it('refuses one that 3 shops use with 409 IN_USE naming how many, and keeps it and the shops', async () => {
      const place = await create();
      const shops = [];
      for (let i = 0; i < 3; i++) shops.push(await d.shop({ [idField]: place.id }));
      const before = await d.row(table, place.id);
      const shopsBefore = await d.count('shops');
      expectError(
        await remove(place.id),
        409,
        'IN_USE',
        `${place.name} is used by 3 shops. Move them to another ${noun} first.`,
      );
      expect(await d.row(table, place.id)).toEqual(before);
      expect(await d.count('shops')).toBe(shopsBefore);
      for (const shop of shops) expect((await d.row('shops', shop.id))?.[`${noun}_id`]).toBe(place.id);
    });

    it('says "shop" and "it" when one shop uses it, and deletes it once that shop moved away', async () => {
      const place = await create();
      const shop = await d.shop({ [idField]: place.id });
      expectError(
        await remove(place.id),
        409,
        'IN_USE',
        `${place.name} is used by 1 shop. Move it to another ${noun} first.`,
      );
      expect(await d.row(table, place.id)).toBeDefined();

      const other = await create();
      expect(
        (await d.call(d.admin, 'PATCH', `/api/shops/${shop.id}`, { [idField]: other.id })).statusCode,
      ).toBe(200);
      expect((await get(place.id)).json().shopCount).toBe(0);
      expect((await remove(place.id)).statusCode).toBe(204);
      expect(await d.row(table, place.id)).toBeUndefined();
      expect((await d.call(d.user, 'GET', `/api/shops/${shop.id}`)).json()[nameField]).toBe(other.name);
    });
  });
});

// A category's store type: the schema.org type its shops are described as on the public pages
// (docs/decisions/034). Floors have none.
describe('a category’s store type', () => {
  const post = (payload: unknown) => d.call(d.admin, 'POST', '/api/categories', payload);
  const patch = (id: string, payload: unknown) => d.call(d.admin, 'PATCH', `/api/categories/${id}`, payload);
  const STORE_TYPE_MESSAGE = 'Choose a store type from the list';

  it('is Store unless given, is set on create and changed on its own or with the name, in every read', async () => {
    const plain = (await post({ name: uniqueName('Plain') })).json() as Category;
    expect(plain.schemaType).toBe('Store');
    expect((await d.row('categories', plain.id))?.schema_type).toBe('Store');

    const created = await post({ name: uniqueName('Books'), schemaType: 'BookStore' });
    expect(created.statusCode, created.body).toBe(201);
    const books = created.json() as Category;
    expect(books.schemaType).toBe('BookStore');
    expect((await d.call(d.user, 'GET', `/api/categories/${books.id}`)).json().schemaType).toBe('BookStore');
    const listed = (await d.call(d.user, 'GET', '/api/categories')).json().items as Category[];
    expect(listed.find((item) => item.id === books.id)?.schemaType).toBe('BookStore');

    const retyped = await patch(books.id, { schemaType: 'HobbyShop' });
    expect(retyped.statusCode, retyped.body).toBe(200);
    expect(retyped.json()).toMatchObject({ name: books.name, schemaType: 'HobbyShop' });
    const name = uniqueName('Games');
    const both = await patch(books.id, { name, schemaType: 'ToyStore' });
    expect(both.json()).toMatchObject({ name, schemaType: 'ToyStore' });
    // A rename alone keeps it.
    const renamed = await patch(books.id, { name: uniqueName('Toys') });
    expect(renamed.json().schemaType).toBe('ToyStore');
    expect((await d.row('categories', books.id))?.schema_type).toBe('ToyStore');
  });

  it('takes every type of the list', async () => {
    const category = await d.category();
    for (const schemaType of STORE_TYPES) {
      const response = await patch(category.id, { schemaType });
      expect(response.statusCode, schemaType).toBe(200);
      expect(response.json().schemaType).toBe(schemaType);
    }
  });

  it.each([
    ['a type not in the list', 'Restaurant'],
    ['another case', 'bookstore'],
    ['blank', ''],
    ['padded', ' BookStore '],
    ['null', null],
    ['a number', 3],
    ['a list', ['BookStore']],
  ])('refuses %s on create and on edit, naming the field, writing nothing', async (_label, schemaType) => {
    const before = await d.count('categories');
    expectFieldError(await post({ name: uniqueName('Typed'), schemaType }), 'schemaType', STORE_TYPE_MESSAGE);
    expect(await d.count('categories')).toBe(before);
    const category = await d.category();
    const row = await d.row('categories', category.id);
    expectFieldError(await patch(category.id, { schemaType }), 'schemaType', STORE_TYPE_MESSAGE);
    expectFieldError(
      await patch(category.id, { name: uniqueName('Typed'), schemaType }),
      'schemaType',
      STORE_TYPE_MESSAGE,
    );
    expect(await d.row('categories', category.id)).toEqual(row);
  });

  it('is not a floor’s: a floor with one is refused', async () => {
    const response = await d.call(d.admin, 'POST', '/api/floors', {
      name: uniqueName(),
      schemaType: 'Store',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Unknown field: schemaType');
    const floor = await d.floor();
    expect(floor).not.toHaveProperty('schemaType');
    const patched = await d.call(d.admin, 'PATCH', `/api/floors/${floor.id}`, { schemaType: 'Store' });
    expect(patched.statusCode).toBe(400);
  });

  it('is in the log of a create and an edit, like the name', async () => {
    const category = (await post({ name: uniqueName('Logged'), schemaType: 'PetStore' })).json() as Category;
    await patch(category.id, { schemaType: 'GardenStore' });
    // An edit that changes nothing leaves no entry.
    await patch(category.id, { schemaType: 'GardenStore' });
    const { rows } = await t.database.pool.query<{ action: string; changes: unknown }>(
      `select action, changes from audit_log where entity_type = 'category' and entity_id = $1 order by at, id`,
      [category.id],
    );
    expect(rows).toEqual([
      {
        action: 'create',
        changes: {
          name: { before: null, after: category.name },
          schemaType: { before: null, after: 'PetStore' },
        },
      },
      { action: 'update', changes: { schemaType: { before: 'PetStore', after: 'GardenStore' } } },
    ]);
  });
});
