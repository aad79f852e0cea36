import { and, eq, inArray } from 'drizzle-orm';
import { AMENITY_LABELS, type AmenityKind } from '../../../shared/amenity';
import { PIN_MESSAGES, type Pin, type PinPlacement } from '../../../shared/floor-plan';
import { amenities, floors, shops } from '../../db/schema';
import { HttpError } from '../../errors';
import type { WriteTx } from '../../write-path';
import { pinOf } from '../amenities/repository';

/** A pin placed or cleared: what the route writes to the log. */
export interface PinChange {
  kind: PinPlacement['kind'];
  id: string;
  /** "Pixel Point", "Lift (Ground Floor)". */
  name: string;
  /** The shop itself for a shop's pin (its manager reads their shop's history by it); null for an amenity. */
  shopId: string | null;
  before: Pin | null;
  after: Pin | null;
}

const samePin = (a: Pin | null, b: Pin | null) =>
  a === null ? b === null : b !== null && a.x === b.x && a.y === b.y;

/**
 * Pins on one floor's plan (docs/decisions/021). Everything is checked before anything is written, under
 * locks (the floor's row, then the named shops' and amenities' rows), so a refused request changes nothing
 * and a shop moving to another floor meanwhile cannot keep a pin on this one.
 */
export async function placePins(
  tx: WriteTx,
  floorId: string,
  placements: readonly PinPlacement[],
): Promise<{ floorName: string; changes: PinChange[] } | null> {
  const [floor] = await tx
    .select({ id: floors.id, name: floors.name, plan: floors.planImage })
    .from(floors)
    .where(eq(floors.id, floorId))
    .for('update');
  if (!floor) return null;
  if (floor.plan === null)
    throw new HttpError(400, 'NO_PLAN', PIN_MESSAGES.noPlan, { pins: PIN_MESSAGES.noPlan });

  const seen = new Set<string>();
  for (const placement of placements) {
    if (seen.has(placement.id))
      throw new HttpError(400, 'VALIDATION', PIN_MESSAGES.twice, { pins: PIN_MESSAGES.twice });
    seen.add(placement.id);
  }
  const shopIds = placements.filter((p) => p.kind === 'shop').map((p) => p.id);
  const amenityIds = placements.filter((p) => p.kind === 'amenity').map((p) => p.id);
  const shopRows =
    shopIds.length === 0
      ? []
      : await tx
          .select({ id: shops.id, name: shops.name, floorId: shops.floorId, x: shops.pinX, y: shops.pinY })
          .from(shops)
          .where(inArray(shops.id, shopIds))
          .orderBy(shops.id)
          .for('update');
  const amenityRows =
    amenityIds.length === 0
      ? []
      : await tx
          .select({
            id: amenities.id,
            kind: amenities.kind,
            floorId: amenities.floorId,
            x: amenities.pinX,
            y: amenities.pinY,
          })
          .from(amenities)
          .where(inArray(amenities.id, amenityIds))
          .orderBy(amenities.id)
          .for('update');
  const found = new Map<string, { name: string; floorId: string; pin: Pin | null }>();
  for (const row of shopRows)
    found.set(`shop ${row.id}`, { name: row.name, floorId: row.floorId, pin: pinOf(row.x, row.y) });
  for (const row of amenityRows)
    found.set(`amenity ${row.id}`, {
      name: `${AMENITY_LABELS[row.kind as AmenityKind]} (${floor.name})`,
      floorId: row.floorId,
      pin: pinOf(row.x, row.y),
    });

  const changes: PinChange[] = [];
  for (const placement of placements) {
    const current = found.get(`${placement.kind} ${placement.id}`);
    if (!current) {
      const message = `No ${placement.kind} with this id is on ${floor.name}`;
      throw new HttpError(400, 'NOT_ON_FLOOR', message, { pins: message });
    }
    if (current.floorId !== floorId) {
      // A shop's name is shown to admins anyway; an amenity is named by its kind.
      const what = placement.kind === 'shop' ? current.name : 'This amenity';
      const message = `${what} is not on ${floor.name}: its pin goes on its own floor's plan`;
      throw new HttpError(400, 'NOT_ON_FLOOR', message, { pins: message });
    }
    if (samePin(current.pin, placement.pin)) continue;
    changes.push({
      kind: placement.kind,
      id: placement.id,
      name: current.name,
      shopId: placement.kind === 'shop' ? placement.id : null,
      before: current.pin,
      after: placement.pin,
    });
  }

  for (const change of changes) {
    const set = { pinX: change.after?.x ?? null, pinY: change.after?.y ?? null };
    if (change.kind === 'shop')
      await tx
        .update(shops)
        .set(set)
        .where(and(eq(shops.id, change.id), eq(shops.floorId, floorId)));
    else
      await tx
        .update(amenities)
        .set(set)
        .where(and(eq(amenities.id, change.id), eq(amenities.floorId, floorId)));
  }
  return { floorName: floor.name, changes };
}
