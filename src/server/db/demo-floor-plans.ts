// The demo mall's floor plans (docs/decisions/021): drawn here as SVG, rendered by sharp and stored
// through the same pipeline as an upload, with every demo shop's and amenity's pin placed, so a new
// mall shows plans at once. The drawings are the project's own; no third-party image is used.
import { asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { byUnit } from '../modules/amenities/repository';
import { type ProcessedImage, processImage } from '../modules/images/pipeline';
import type { ImageStore } from '../modules/images/store';
import type { WriteTx } from '../write-path';
import type { Db } from './client';
import { amenities, floors, shops } from './schema';

type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

const WIDTH = 1000;
const HEIGHT = 640;
/** The corridor runs across the middle; units line it above and below. */
const CORRIDOR = { top: 270, bottom: 370 };
const MARGIN = 40;
/** How far amenity pins keep from the atrium's centre line. */
const ATRIUM_CLEARANCE = 70;

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

/** A floor's drawn plan: the stored image and where each of its shops' units is, by shop name. */
export interface DrawnPlan {
  image: ProcessedImage;
  spots: ReadonlyMap<string, { x: number; y: number }>;
}

/**
 * Draws the plan of each floor from the shops it will have (by unit, as the floor guide lists them) and
 * processes it as an upload would be. Runs before the demo's transaction: processing never holds the
 * database.
 */
export async function drawDemoFloorPlans(
  floorShops: ReadonlyMap<string, readonly { name: string; location: string }[]>,
): Promise<Map<string, DrawnPlan>> {
  const drawn = new Map<string, DrawnPlan>();
  for (const [floor, list] of floorShops) {
    const sorted = list.map((shop) => ({ ...shop, id: '', category: '', pin: null })).sort(byUnit);
    const units = layoutUnits(sorted.map((shop, index) => unitLabel(shop.location, index)));
    const png = await sharp(Buffer.from(floorPlanSvg(units)))
      .png()
      .toBuffer();
    const spots = new Map<string, { x: number; y: number }>();
    for (const [index, shop] of sorted.entries()) {
      const unit = units[index];
      if (unit)
        spots.set(shop.name, {
          x: round((unit.x + unit.width / 2) / WIDTH),
          y: round((unit.y + unit.height / 2 + 12) / HEIGHT),
        });
    }
    drawn.set(floor, { image: await processImage(png), spots });
  }
  return drawn;
}

/**
 * Within the demo's transaction, after its floors, shops and amenities: stores each drawn plan, gives it
 * to its floor and pins the floor's shops (the centre of their unit) and amenities (along the corridor).
 * The demo mall loads unaudited, as its rows do: not a change anyone made.
 */
export async function placeDemoFloorPlans(
  tx: Transaction,
  store: ImageStore,
  drawn: ReadonlyMap<string, DrawnPlan>,
): Promise<void> {
  for (const [floorName, plan] of drawn) {
    const [floor] = await tx.select({ id: floors.id }).from(floors).where(eq(floors.name, floorName));
    if (!floor) throw new Error(`The demo mall has no floor named ${floorName}`);
    // why: the demo mall is not an audited change (as its rows are not), so it writes outside performWrite
    await store.save(tx as unknown as WriteTx, plan.image);
    await tx.update(floors).set({ planImage: plan.image.key }).where(eq(floors.id, floor.id));
    const floorShops = await tx
      .select({ id: shops.id, name: shops.name })
      .from(shops)
      .where(eq(shops.floorId, floor.id));
    for (const shop of floorShops) {
      const spot = plan.spots.get(shop.name);
      if (spot) await tx.update(shops).set({ pinX: spot.x, pinY: spot.y }).where(eq(shops.id, shop.id));
    }
    const floorAmenities = await tx
      .select({ id: amenities.id })
      .from(amenities)
      .where(eq(amenities.floorId, floor.id))
      .orderBy(asc(amenities.kind), asc(amenities.id));
    // Along the corridor, clear of the atrium in the middle, evenly apart: the corridor's two halves laid
    // end to end, so no two pins come closer than the span allows (on a phone's plan, a third of its
    // size, 7 pins stay a pin's width apart: the a11y suite's target-size check).
    const start = MARGIN + 20;
    const half = WIDTH / 2 - ATRIUM_CLEARANCE - start;
    for (const [index, amenity] of floorAmenities.entries()) {
      const along = ((index + 0.5) / floorAmenities.length) * 2 * half;
      const x = along < half ? start + along : WIDTH / 2 + ATRIUM_CLEARANCE + (along - half);
      await tx
        .update(amenities)
        .set({ pinX: round(x / WIDTH), pinY: round((CORRIDOR.top + CORRIDOR.bottom) / 2 / HEIGHT) })
        .where(eq(amenities.id, amenity.id));
    }
  }
}
