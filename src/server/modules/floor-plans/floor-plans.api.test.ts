// Floor-plan pins (docs/decisions/021): set and cleared by admins through PUT /api/floors/:id/pins, all or
// nothing, each moved pin its shop's or amenity's update in the log; shown on the Floors page's guide; a
// pin goes when its shop or amenity moves to another floor or the floor's plan is removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FloorGuide, FloorGuideEntry } from '../../../shared/amenity';
import { PIN_MESSAGES } from '../../../shared/floor-plan';
import type { Place } from '../../../shared/place';
import { type Directory, openDirectory, unknownId } from '../../test/catalog-fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { multipart, testJpeg } from '../../test/images';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

async function uploadPlan(floorId: string): Promise<string> {
  const { payload, headers } = multipart(await testJpeg({ width: 400, height: 300 }));
  const response = await t.app.inject({
    method: 'PUT',
    url: `/api/floors/${floorId}/plan`,
    payload,
    headers: { ...headers, ...d.admin.headers },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().image as string;
}

/** A floor with a plan, a shop and an amenity on it. */
async function planned(): Promise<{ floor: Place; shopId: string; amenityId: string }> {
  const floor = await d.floor();
  await uploadPlan(floor.id);
  const shop = await d.shop({ floorId: floor.id });
  const amenity = await d.call(d.admin, 'POST', '/api/amenities', { floorId: floor.id, kind: 'lift' });
  expect(amenity.statusCode, amenity.body).toBe(201);
  return { floor, shopId: shop.id, amenityId: amenity.json().id };
}

const putPins = (floorId: string, body: unknown, as = d.admin) =>
  d.call(as, 'PUT', `/api/floors/${floorId}/pins`, body);

const pinsOf = async (table: 'shops' | 'amenities', id: string) => {
  const row = await d.row(table, id);
  return { x: row?.pin_x ?? null, y: row?.pin_y ?? null };
};

async function guideEntry(floorId: string): Promise<FloorGuideEntry> {
  const response = await d.call(d.user, 'GET', '/api/floor-guide');
  expect(response.statusCode).toBe(200);
  const entry = (response.json() as FloorGuide).floors.find((floor) => floor.id === floorId);
  if (!entry) throw new Error('floor not in the guide');
  return entry;
}

describe('placing pins', () => {
  it('sets a shop and an amenity pin, answers the floor as the guide shows it, and logs each', async () => {
    const { floor, shopId, amenityId } = await planned();
    const response = await putPins(floor.id, {
      pins: [
        { kind: 'shop', id: shopId, pin: { x: 0.25, y: 0.5 } },
        { kind: 'amenity', id: amenityId, pin: { x: 1, y: 0 } },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const entry = response.json() as FloorGuideEntry;
    expect(entry.planImage).toEqual(expect.any(String));
    expect(entry.shops.find((shop) => shop.id === shopId)?.pin).toEqual({ x: 0.25, y: 0.5 });
    expect(entry.amenities.find((amenity) => amenity.id === amenityId)?.pin).toEqual({ x: 1, y: 0 });

    // Shoppers read the same through the guide and the shop itself.
    const guide = await guideEntry(floor.id);
    expect(guide.shops.find((shop) => shop.id === shopId)?.pin).toEqual({ x: 0.25, y: 0.5 });
    expect((await d.call(d.user, 'GET', `/api/shops/${shopId}`)).json().pin).toEqual({ x: 0.25, y: 0.5 });

    const log = await t.database.pool.query<{
      entity_type: string;
      shop_id: string | null;
      changes: unknown;
    }>('select entity_type, shop_id, changes from audit_log where entity_id = any($1) order by id', [
      [shopId, amenityId],
    ]);
    const pinEntries = log.rows.filter((row) => JSON.stringify(row.changes).includes('pin'));
    expect(pinEntries).toEqual([
      {
        entity_type: 'shop',
        shop_id: shopId,
        changes: { pin: { before: null, after: '25% across, 50% down' } },
      },
      {
        entity_type: 'amenity',
        shop_id: null,
        changes: { pin: { before: null, after: '100% across, 0% down' } },
      },
    ]);
  });

  it('moves and clears a pin; an unchanged pin is no change and leaves no entry', async () => {
    const { floor, shopId } = await planned();
    expect(
      (await putPins(floor.id, { pins: [{ kind: 'shop', id: shopId, pin: { x: 0.1, y: 0.2 } }] })).statusCode,
    ).toBe(200);
    expect(
      (await putPins(floor.id, { pins: [{ kind: 'shop', id: shopId, pin: { x: 0.3, y: 0.2 } }] })).statusCode,
    ).toBe(200);
    expect(await pinsOf('shops', shopId)).toEqual({ x: expect.closeTo(0.3, 5), y: expect.closeTo(0.2, 5) });
    const count = async () =>
      Number(
        (await t.database.pool.query('select count(*) as n from audit_log where entity_id = $1', [shopId]))
          .rows[0].n,
      );
    const before = await count();
    expect(
      (await putPins(floor.id, { pins: [{ kind: 'shop', id: shopId, pin: { x: 0.3, y: 0.2 } }] })).statusCode,
    ).toBe(200);
    expect(await count()).toBe(before);
    const cleared = await putPins(floor.id, { pins: [{ kind: 'shop', id: shopId, pin: null }] });
    expect(cleared.statusCode).toBe(200);
    expect(await pinsOf('shops', shopId)).toEqual({ x: null, y: null });
    expect(await count()).toBe(before + 1);
  });

  it('is for admins only: a user and the shop\u2019s own manager get 403 and nothing changes', async () => {
    const { floor, shopId } = await planned();
    const manager = await d.manager(shopId);
    for (const as of [d.user, manager]) {
      const response = await putPins(
        floor.id,
        { pins: [{ kind: 'shop', id: shopId, pin: { x: 0.5, y: 0.5 } }] },
        as,
      );
      expect(response.statusCode).toBe(403);
    }
    expect(await pinsOf('shops', shopId)).toEqual({ x: null, y: null });
  });
});

describe('bad pins are refused with a clear message and change nothing', () => {
  it('refuses a shop of another floor, an unknown id, a floor without a plan, a name twice', async () => {
    const { floor, shopId, amenityId } = await planned();
    const elsewhere = await d.shop();
    const noPlan = await d.floor();
    const shopOnNoPlan = await d.shop({ floorId: noPlan.id });
    const cases: Array<[string, string, unknown, RegExp]> = [
      [
        'a shop of another floor',
        floor.id,
        {
          pins: [
            { kind: 'shop', id: shopId, pin: { x: 0.5, y: 0.5 } },
            { kind: 'shop', id: elsewhere.id, pin: { x: 0.5, y: 0.5 } },
          ],
        },
        new RegExp(`${elsewhere.name} is not on ${floor.name}`),
      ],
      [
        'an unknown shop',
        floor.id,
        { pins: [{ kind: 'shop', id: unknownId(), pin: { x: 0.5, y: 0.5 } }] },
        /No shop with this id/,
      ],
      [
        'an amenity named as a shop',
        floor.id,
        { pins: [{ kind: 'shop', id: amenityId, pin: { x: 0.5, y: 0.5 } }] },
        /No shop with this id/,
      ],
      [
        'a floor without a plan',
        noPlan.id,
        { pins: [{ kind: 'shop', id: shopOnNoPlan.id, pin: { x: 0.5, y: 0.5 } }] },
        new RegExp(PIN_MESSAGES.noPlan),
      ],
      [
        'the same shop twice',
        floor.id,
        {
          pins: [
            { kind: 'shop', id: shopId, pin: { x: 0.5, y: 0.5 } },
            { kind: 'shop', id: shopId, pin: null },
          ],
        },
        new RegExp(PIN_MESSAGES.twice),
      ],
    ];
    for (const [label, floorId, body, message] of cases) {
      const response = await putPins(floorId, body);
      expect(response.statusCode, label).toBe(400);
      expect(response.json().error.message, label).toMatch(message);
    }
    // The first case's valid pin was not written either: all or nothing.
    expect(await pinsOf('shops', shopId)).toEqual({ x: null, y: null });
    expect(await pinsOf('shops', elsewhere.id)).toEqual({ x: null, y: null });
    expect((await putPins(unknownId(), { pins: [{ kind: 'shop', id: shopId, pin: null }] })).statusCode).toBe(
      404,
    );
  });
});

describe('a pin goes with its floor', () => {
  it('is cleared when the shop or amenity moves to another floor', async () => {
    const { floor, shopId, amenityId } = await planned();
    await putPins(floor.id, {
      pins: [
        { kind: 'shop', id: shopId, pin: { x: 0.5, y: 0.5 } },
        { kind: 'amenity', id: amenityId, pin: { x: 0.5, y: 0.5 } },
      ],
    });
    const other = await d.floor();
    expect((await d.call(d.admin, 'PATCH', `/api/shops/${shopId}`, { floorId: other.id })).statusCode).toBe(
      200,
    );
    expect(
      (await d.call(d.admin, 'PATCH', `/api/amenities/${amenityId}`, { floorId: other.id })).statusCode,
    ).toBe(200);
    expect(await pinsOf('shops', shopId)).toEqual({ x: null, y: null });
    expect(await pinsOf('amenities', amenityId)).toEqual({ x: null, y: null });
    expect((await d.call(d.user, 'GET', `/api/shops/${shopId}`)).json().pin).toBeNull();
  });

  it('keeps a pin through other changes of the shop, and through a replaced plan', async () => {
    const { floor, shopId } = await planned();
    await putPins(floor.id, { pins: [{ kind: 'shop', id: shopId, pin: { x: 0.5, y: 0.25 } }] });
    expect(
      (await d.call(d.admin, 'PATCH', `/api/shops/${shopId}`, { contact: 'Call 555', floorId: floor.id }))
        .statusCode,
    ).toBe(200);
    await uploadPlan(floor.id);
    expect((await d.call(d.user, 'GET', `/api/shops/${shopId}`)).json().pin).toEqual({ x: 0.5, y: 0.25 });
  });

  it('every pin of the floor is cleared when its plan is removed', async () => {
    const { floor, shopId, amenityId } = await planned();
    const untouched = await planned();
    const pins = (shop: string, amenity: string) => ({
      pins: [
        { kind: 'shop', id: shop, pin: { x: 0.5, y: 0.5 } },
        { kind: 'amenity', id: amenity, pin: { x: 0.5, y: 0.5 } },
      ],
    });
    await putPins(floor.id, pins(shopId, amenityId));
    await putPins(untouched.floor.id, pins(untouched.shopId, untouched.amenityId));
    expect((await d.call(d.admin, 'DELETE', `/api/floors/${floor.id}/plan`)).statusCode).toBe(200);
    expect(await pinsOf('shops', shopId)).toEqual({ x: null, y: null });
    expect(await pinsOf('amenities', amenityId)).toEqual({ x: null, y: null });
    const entry = await guideEntry(floor.id);
    expect(entry.planImage).toBeNull();
    // Another floor's pins stay.
    expect(await pinsOf('shops', untouched.shopId)).toEqual({ x: 0.5, y: 0.5 });
  });
});
