// Floors in level order and their amenities (docs/decisions/018): levels set, defaulted and refused on
// a clash; amenities read by every signed-in person and written by admins only; the shoppers' floor guide.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Amenity, FloorGuide } from '../../../shared/amenity';
import { FLOOR_LEVEL_MESSAGE, type Floor } from '../../../shared/place';
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

const floorsList = async () => (await d.call(d.user, 'GET', '/api/floors')).json().items as Floor[];
async function floorAt(level: number | undefined, name = uniqueName('Floor')): Promise<Floor> {
  const response = await d.call(
    d.admin,
    'POST',
    '/api/floors',
    level === undefined ? { name } : { name, level },
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}
const auditOf = async (id: string) =>
  (
    await t.database.pool.query<{ action: string; entity_name: string; changes: unknown; detail: unknown }>(
      'select action, entity_name, changes, detail from audit_log where entity_id = $1 order by id',
      [id],
    )
  ).rows;

describe('floor levels', () => {
  it('lists floors by level, below-ground first, whatever their names or the order they were added', async () => {
    const second = await floorAt(-72, uniqueName('A Second'));
    const lower = await floorAt(-75, uniqueName('Z Lower Ground'));
    const ground = await floorAt(-74, uniqueName('M Ground'));
    const first = await floorAt(-73, uniqueName('B First'));
    const mine = (await floorsList()).filter((floor) =>
      [second, lower, ground, first].some((f) => f.id === floor.id),
    );
    expect(mine.map((floor) => [floor.name, floor.level])).toEqual([
      [lower.name, -75],
      [ground.name, -74],
      [first.name, -73],
      [second.name, -72],
    ]);
    // Every floor of the list, in strictly rising levels.
    const levels = (await floorsList()).map((floor) => floor.level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    expect(new Set(levels).size).toBe(levels.length);
  });

  it("puts a floor added by name only (the spec's flow) one above the highest", async () => {
    const highest = Math.max(...(await floorsList()).map((floor) => floor.level));
    const added = await floorAt(undefined);
    expect(added.level).toBe(highest + 1);
    expect((await d.row('floors', added.id))?.level).toBe(highest + 1);
  });

  it('refuses a level another floor holds, naming that floor, on create and on update', async () => {
    const taken = await floorAt(-60, uniqueName('Mezzanine'));
    const before = await d.count('floors');
    const message = `${taken.name} is already at level \u221260`;
    expectError(
      await d.call(d.admin, 'POST', '/api/floors', { name: uniqueName(), level: -60 }),
      409,
      'LEVEL_TAKEN',
      message,
      'level',
    );
    expect(await d.count('floors')).toBe(before);

    const other = await floorAt(-61);
    const row = await d.row('floors', other.id);
    expectError(
      await d.call(d.admin, 'PATCH', `/api/floors/${other.id}`, { level: -60 }),
      409,
      'LEVEL_TAKEN',
      message,
      'level',
    );
    expect(await d.row('floors', other.id)).toEqual(row);
    // Its own level is no clash.
    const same = await d.call(d.admin, 'PATCH', `/api/floors/${taken.id}`, {
      level: -60,
      name: `${taken.name} x`,
    });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('moves a floor to a free level and records the move', async () => {
    const floor = await floorAt(-50);
    const response = await d.call(d.admin, 'PATCH', `/api/floors/${floor.id}`, { level: -49 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ...floor, level: -49 });
    const [created, moved] = await auditOf(floor.id);
    expect(created?.changes).toEqual({
      name: { before: null, after: floor.name },
      level: { before: null, after: -50 },
    });
    expect(moved?.changes).toEqual({ level: { before: -50, after: -49 } });
  });

  it.each([
    ['a fraction', 1.5],
    ['a numeric string', '1'],
    ['null', null],
    ['above the highest', 1000],
    ['below the lowest', -100],
    ['true', true],
  ])('refuses a level that is %s', async (_label, level) => {
    const before = await d.count('floors');
    expectFieldError(
      await d.call(d.admin, 'POST', '/api/floors', { name: uniqueName(), level }),
      'level',
      FLOOR_LEVEL_MESSAGE,
    );
    expect(await d.count('floors')).toBe(before);
  });

  it('gives floors added at the same moment different levels', async () => {
    const added = await Promise.all(Array.from({ length: 6 }, () => floorAt(undefined)));
    expect(new Set(added.map((floor) => floor.level)).size).toBe(6);
  });

  it('lets shoppers read levels but not set them', async () => {
    const floor = await floorAt(-40);
    expect((await d.call(d.user, 'GET', `/api/floors/${floor.id}`)).json().level).toBe(-40);
    expect((await d.call(d.user, 'PATCH', `/api/floors/${floor.id}`, { level: -41 })).statusCode).toBe(403);
  });
});

const post = (payload: unknown, as = d.admin) => d.call(as, 'POST', '/api/amenities', payload);

describe('amenities', () => {
  it('an admin adds, changes and deletes one; each change is in the log', async () => {
    const floor = await floorAt(-30, uniqueName('Amenity Floor'));
    const other = await floorAt(-29);
    const created = await post({ floorId: floor.id, kind: 'lift', location: '  North corridor ' });
    expect(created.statusCode, created.body).toBe(201);
    const amenity = created.json() as Amenity;
    expect(amenity).toEqual({
      id: expect.any(String),
      floorId: floor.id,
      floor: floor.name,
      kind: 'lift',
      location: 'North corridor',
      createdAt: expect.any(String),
    });
    expect((await d.call(d.user, 'GET', `/api/amenities/${amenity.id}`)).json()).toEqual(amenity);

    const changed = await d.call(d.admin, 'PATCH', `/api/amenities/${amenity.id}`, {
      kind: 'escalator',
      floorId: other.id,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      kind: 'escalator',
      floorId: other.id,
      location: 'North corridor',
    });

    expect((await d.call(d.admin, 'DELETE', `/api/amenities/${amenity.id}`)).statusCode).toBe(204);
    expectError(
      await d.call(d.user, 'GET', `/api/amenities/${amenity.id}`),
      404,
      'NOT_FOUND',
      'This amenity does not exist',
    );

    const log = await auditOf(amenity.id);
    expect(log.map((entry) => [entry.action, entry.entity_name])).toEqual([
      ['create', `Lift (${floor.name})`],
      ['update', `Escalator (${other.name})`],
      ['delete', `Escalator (${other.name})`],
    ]);
    expect(log[1]?.changes).toEqual({
      kind: { before: 'Lift', after: 'Escalator' },
      floor: { before: floor.name, after: other.name },
    });
  });

  it('shoppers and visitors read them (the public directory); shoppers and visitors write nothing', async () => {
    const floor = await floorAt(-28);
    const amenity = (
      await post({ floorId: floor.id, kind: 'atm', location: 'By the lifts' })
    ).json() as Amenity;
    const listed = (await d.call(d.user, 'GET', '/api/amenities')).json().items as Amenity[];
    expect(listed).toContainEqual(amenity);
    const before = await t.database.pool.query('select count(*)::int as n from amenities');
    for (const as of [d.user, null]) {
      const status = as ? 403 : 401;
      expect((await post({ floorId: floor.id, kind: 'atm' }, as as typeof d.admin)).statusCode).toBe(status);
      expect((await d.call(as, 'PATCH', `/api/amenities/${amenity.id}`, { location: 'x' })).statusCode).toBe(
        status,
      );
      expect((await d.call(as, 'DELETE', `/api/amenities/${amenity.id}`)).statusCode).toBe(status);
    }
    // A visitor reads them while the public directory is on (the default; docs/decisions/034).
    const visitor = await d.call(null, 'GET', '/api/amenities');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json().items).toContainEqual(amenity);
    expect((await t.database.pool.query('select count(*)::int as n from amenities')).rows).toEqual(
      before.rows,
    );
  });

  it('refuses a kind not on the list and a floor that does not exist', async () => {
    const floor = await floorAt(-27);
    for (const kind of ['sauna', '', 'LIFT', null, 3])
      expectFieldError(await post({ floorId: floor.id, kind }), 'kind', 'Choose a kind of amenity');
    expectFieldError(await post({ floorId: unknownId(), kind: 'lift' }), 'floorId', 'Floor is required');
    expectFieldError(await post({ kind: 'lift' }), 'floorId', 'Floor is required');
  });

  it('go with their floor, whose delete names them in the log', async () => {
    const floor = await floorAt(-26);
    await post({ floorId: floor.id, kind: 'restrooms', location: 'East' });
    await post({ floorId: floor.id, kind: 'lift', location: 'West' });
    expect((await d.call(d.admin, 'DELETE', `/api/floors/${floor.id}`)).statusCode).toBe(204);
    const left = await t.database.pool.query('select count(*)::int as n from amenities where floor_id = $1', [
      floor.id,
    ]);
    expect(left.rows[0].n).toBe(0);
    const deleted = (await auditOf(floor.id)).find((entry) => entry.action === 'delete');
    expect(deleted?.detail).toEqual({
      amenities: [
        { kind: 'lift', location: 'West' },
        { kind: 'restrooms', location: 'East' },
      ],
    });
  });
});

describe('the floor guide', () => {
  it('gives every floor in level order with its shops by unit and its amenities, fresh after a change', async () => {
    const upper = await floorAt(-10, uniqueName('Guide Upper'));
    const lower = await floorAt(-11, uniqueName('Guide Lower'));
    const category = await d.category();
    const shop = (name: string, location: string) =>
      d.shop({ name: `${name} ${uniqueName('')}`, floorId: lower.id, categoryId: category.id, location });
    const g10 = await shop('Alpha', 'Unit G-10');
    const g2 = await shop('Beta', 'Unit G-2, by the lifts');
    const none = await shop('Gamma', '');
    await post({ floorId: lower.id, kind: 'lift', location: 'North' });
    await post({ floorId: lower.id, kind: 'information-desk', location: 'Atrium' });

    const read = async () => (await d.call(d.user, 'GET', '/api/floor-guide')).json() as FloorGuide;
    const guide = await read();
    const levels = guide.floors.map((floor) => floor.level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    const mine = guide.floors.filter((floor) => floor.id === lower.id || floor.id === upper.id);
    expect(mine.map((floor) => floor.name)).toEqual([lower.name, upper.name]);
    const [first, second] = mine;
    expect(first?.shops.map((s) => s.id)).toEqual([g2.id, g10.id, none.id]);
    expect(first?.shops[0]).toEqual({
      id: g2.id,
      name: g2.name,
      // Its public address (docs/decisions/034).
      slug: g2.slug,
      category: category.name,
      location: g2.location,
      // No plan, no pins (docs/decisions/021).
      pin: null,
    });
    expect(first?.planImage).toBeNull();
    expect(first?.amenities.map((a) => [a.kind, a.location])).toEqual([
      ['information-desk', 'Atrium'],
      ['lift', 'North'],
    ]);
    expect(second?.shops).toEqual([]);
    expect(second?.amenities).toEqual([]);

    // An amenity added after the read is in the next one (the cached read follows the catalogue version).
    await post({ floorId: upper.id, kind: 'atm', location: 'Entrance' });
    const again = (await read()).floors.find((floor) => floor.id === upper.id);
    expect(again?.amenities.map((a) => a.kind)).toEqual(['atm']);
    // A visitor reads the same guide (the public directory's floors page: docs/decisions/034).
    const visitor = await d.call(null, 'GET', '/api/floor-guide');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual(await read());

    // A shop page's plan: one floor, its amenities, and of its shops that one only.
    const ofShop = (
      await d.call(null, 'GET', `/api/floor-guide?floor=${lower.id}&shop=${g10.id}`)
    ).json() as FloorGuide;
    expect(ofShop.floors.map((floor) => floor.id)).toEqual([lower.id]);
    expect(ofShop.floors[0]?.shops.map((s) => s.id)).toEqual([g10.id]);
    expect(ofShop.floors[0]?.amenities.map((a) => a.kind)).toEqual(['information-desk', 'lift']);
    // A shop on another floor: the floor without shops, not that shop.
    const elsewhere = (
      await d.call(null, 'GET', `/api/floor-guide?floor=${upper.id}&shop=${g10.id}`)
    ).json() as FloorGuide;
    expect(elsewhere.floors[0]?.shops).toEqual([]);
    const bad = await d.call(null, 'GET', `/api/floor-guide?floor=${lower.id}&shop=not-an-id`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Unknown shop');
  });
});
