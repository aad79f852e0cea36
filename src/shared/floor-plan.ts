import './zod-config';
import { z } from 'zod';

/**
 * Pins on a floor's plan (docs/decisions/021): a shop's or an amenity's place on its floor's plan, as
 * fractions of the plan's width (x, from the left) and height (y, from the top), 0 to 1. Both or neither
 * (the database's CHECK says the same).
 */
export const PIN_MESSAGE = 'A pin needs both x and y, each a number from 0 to 1 (a fraction of the plan)';
export const PIN_MESSAGES = {
  pin: PIN_MESSAGE,
  kind: 'Say whether the pin is a shop\u2019s or an amenity\u2019s',
  id: 'Name the shop or amenity the pin is for',
  list: 'Send between 1 and 2000 pins',
  twice: 'Each shop or amenity may be named once per request',
  noPlan: 'This floor has no plan yet: upload one before placing pins',
} as const;

const coordinate = z.number({ error: PIN_MESSAGE }).min(0, PIN_MESSAGE).max(1, PIN_MESSAGE);
export const Pin = z.strictObject({ x: coordinate, y: coordinate }, { error: PIN_MESSAGE });
export type Pin = z.infer<typeof Pin>;

export const PIN_KINDS = ['shop', 'amenity'] as const;
export type PinKind = (typeof PIN_KINDS)[number];

export const PinPlacement = z.strictObject({
  kind: z.enum(PIN_KINDS, { error: PIN_MESSAGES.kind }),
  id: z.uuid({ error: PIN_MESSAGES.id }),
  /** The pin, or null to take it off the plan. */
  pin: Pin.nullable(),
});
export type PinPlacement = z.infer<typeof PinPlacement>;

/** PUT /api/floors/:id/pins: pins to set or clear on that floor; shops and amenities not named keep theirs. */
export const FloorPinsInput = z.strictObject({
  pins: z
    .array(PinPlacement, { error: PIN_MESSAGES.list })
    .min(1, PIN_MESSAGES.list)
    .max(2000, PIN_MESSAGES.list),
});
export type FloorPinsInput = z.infer<typeof FloorPinsInput>;

/** "48%, 30%": how the audit log and the admin's pin list show a pin. */
export const pinText = (pin: Pin | null) =>
  pin ? `${Math.round(pin.x * 100)}% across, ${Math.round(pin.y * 100)}% down` : null;
