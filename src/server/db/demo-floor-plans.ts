// The demo mall's floor plans (docs/decisions/021): drawn here as SVG, rendered by sharp and stored
// through the same pipeline as an upload, with every demo shop's and amenity's pin placed, so a new
// mall shows plans at once. The drawings are the project's own; no third-party image is used.
import { asc, eq, isNull } from 'drizzle-orm';
import sharp from 'sharp';
import { byUnit } from '../modules/amenities/repository';
import { processImage } from '../modules/images/pipeline';
import type { ImageStore } from '../modules/images/store';
import type { WriteTx } from '../write-path';
import type { Db } from './client';
import { amenities, floors, shops } from './schema';

const WIDTH = 1000;
const HEIGHT = 640;
/** The corridor runs across the middle; units line it above and below. */
const CORRIDOR = { top: 270, bottom: 370 };
const MARGIN = 40;

interface Unit {
  x: number;
  y: number;
  width: number;
  height: number;
  label: string;
}

/** "Unit G-04, beside the main atrium" → "G-04"; a location with no unit number: the unit's index. */
function unitLabel(location: string, index: number): string {
  const match = /unit\s+([\w-]+)/i.exec(location);
  return match?.[1] ?? String(index + 1);
}

/** The units of a floor of `count` shops: half above the corridor, half below, left to right. */
export function layoutUnits(labels: readonly string[]): Unit[] {
  const above = Math.ceil(labels.length / 2);
  const below = labels.length - above;
  const row = (count: number, y: number, height: number, offset: number): Unit[] => {
    if (count === 0) return [];
    const width = (WIDTH - 2 * MARGIN) / count;
    return Array.from({ length: count }, (_, i) => ({
      x: MARGIN + i * width,
      y,
      width,
      height,
      label: labels[offset + i] ?? '',
    }));
  };
  return [
    ...row(above, MARGIN, CORRIDOR.top - MARGIN, 0),
    ...row(below, CORRIDOR.bottom, HEIGHT - MARGIN - CORRIDOR.bottom, above),
  ];
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.codePointAt(0)};`);

/** The floor's drawing: walls, units with their numbers, the corridor and the atrium. */
export function floorPlanSvg(units: readonly Unit[]): string {
  const unitShapes = units
    .map(
      (unit) =>
        `<rect x="${unit.x + 4}" y="${unit.y + 4}" width="${unit.width - 8}" height="${unit.height - 8}" rx="6" fill="#ffffff" stroke="#94a3b8" stroke-width="3"/>` +
        `<text x="${unit.x + 16}" y="${unit.y + 34}" font-family="DejaVu Sans, Arial, sans-serif" font-size="22" fill="#475569">${escapeXml(unit.label)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <rect width="${WIDTH}" height="${HEIGHT}" fill="#f1f5f9"/>
  <rect x="${MARGIN - 12}" y="${MARGIN - 12}" width="${WIDTH - 2 * MARGIN + 24}" height="${HEIGHT - 2 * MARGIN + 24}" rx="18" fill="#e2e8f0" stroke="#64748b" stroke-width="6"/>
  <rect x="${MARGIN}" y="${CORRIDOR.top}" width="${WIDTH - 2 * MARGIN}" height="${CORRIDOR.bottom - CORRIDOR.top}" fill="#fef9c3"/>
  <circle cx="${WIDTH / 2}" cy="${(CORRIDOR.top + CORRIDOR.bottom) / 2}" r="38" fill="#bae6fd" stroke="#0284c7" stroke-width="3"/>
  ${unitShapes}
</svg>`;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * For every floor without a plan: draws it, stores it as an uploaded plan would be, and pins its shops
 * (the centre of their unit, by unit number) and amenities (along the corridor). Returns how many plans.
 */
export async function addDemoFloorPlans(db: Db, store: ImageStore): Promise<number> {
  const floorRows = await db
    .select({ id: floors.id, name: floors.name })
    .from(floors)
    .where(isNull(floors.planImage))
    .orderBy(asc(floors.level));
  let made = 0;
  for (const floor of floorRows) {
    const floorShops = (
      await db
        .select({ id: shops.id, name: shops.name, location: shops.location })
        .from(shops)
        .where(eq(shops.floorId, floor.id))
    )
      .map((shop) => ({ ...shop, category: '', pin: null }))
      .sort(byUnit);
    const floorAmenities = await db
      .select({ id: amenities.id })
      .from(amenities)
      .where(eq(amenities.floorId, floor.id))
      .orderBy(asc(amenities.kind), asc(amenities.id));
    const units = layoutUnits(floorShops.map((shop, index) => unitLabel(shop.location, index)));
    const png = await sharp(Buffer.from(floorPlanSvg(units)))
      .png()
      .toBuffer();
    const image = await processImage(png);
    await store.withKey(image.key, () =>
      db.transaction(async (tx) => {
        // The demo mall loads unaudited, as loadDemoData does: not a change anyone made.
        await store.save(tx as unknown as WriteTx, image);
        await tx.update(floors).set({ planImage: image.key }).where(eq(floors.id, floor.id));
        for (const [index, shop] of floorShops.entries()) {
          const unit = units[index];
          if (!unit) continue;
          await tx
            .update(shops)
            .set({
              pinX: round((unit.x + unit.width / 2) / WIDTH),
              pinY: round((unit.y + unit.height / 2 + 12) / HEIGHT),
            })
            .where(eq(shops.id, shop.id));
        }
        // Along the corridor, clear of the atrium in the middle.
        const slots = floorAmenities.length;
        for (const [index, amenity] of floorAmenities.entries()) {
          const across = (index + 0.5) / slots;
          const x = MARGIN + 30 + across * (WIDTH - 2 * MARGIN - 60);
          const nudged = Math.abs(x - WIDTH / 2) < 70 ? x + (x < WIDTH / 2 ? -70 : 70) : x;
          await tx
            .update(amenities)
            .set({ pinX: round(nudged / WIDTH), pinY: round((CORRIDOR.top + CORRIDOR.bottom) / 2 / HEIGHT) })
            .where(eq(amenities.id, amenity.id));
        }
      }),
    );
    made++;
  }
  return made;
}
