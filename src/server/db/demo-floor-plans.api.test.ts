// The demo mall's floor plans (docs/decisions/021): every floor gets a plan stored like an upload, and
// every demo shop and amenity a pin on it, inside the plan — loaded in the demo's one transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FloorGuide } from '../../shared/amenity';
import { parseImageKey } from '../../shared/images';
import { createTestApp, registerAs, type TestApp } from '../test/harness';
import { loadDemoData } from './demo-data';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await loadDemoData(t.database.db, '2026-11-24', { images: t.app.imageStore });
});
afterAll(async () => {
  await t?.close();
});

describe('demo floor plans', () => {
  it('draws a plan for every floor and pins every shop and amenity on it', async () => {
    const user = await registerAs(t.app, 'user');
    const response = await t.app.inject({ url: '/api/floor-guide', headers: user.headers });
    const { floors } = response.json() as FloorGuide;
    expect(floors).toHaveLength(5);
    for (const floor of floors) {
      expect(parseImageKey(floor.planImage), floor.name).not.toBeNull();
      for (const place of [...floor.shops, ...floor.amenities]) {
        expect(place.pin, `${floor.name} ${place.id}`).toEqual({
          x: expect.any(Number),
          y: expect.any(Number),
        });
        expect(place.pin?.x).toBeGreaterThan(0);
        expect(place.pin?.x).toBeLessThan(1);
      }
      // Two shops never share a spot.
      const spots = new Set(floor.shops.map((shop) => `${shop.pin?.x} ${shop.pin?.y}`));
      expect(spots.size).toBe(floor.shops.length);
      // The variants are there to serve.
      const image = await t.app.inject({ url: `/api/images/${floor.planImage}/480.webp` });
      expect(image.statusCode).toBe(200);
    }
  });
});
