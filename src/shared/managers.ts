import './zod-config';
import { z } from 'zod';

export { DIRECTORY_FIELDS_REFUSED, NOT_YOUR_SHOP } from './errors';

/**
 * Shop managers (docs/decisions/015): a user account with a membership in one or more shops. An admin
 * invites one from the shop's page with a one-time link; the person accepts it signed in.
 */
export const MANAGER_INVITE_MESSAGES = {
  invalid:
    'This invitation link is not valid any more: it was used, revoked or has expired. Ask the mall office for a new one.',
  admin:
    "An admin account looks after every shop already: open the link signed in with the shop's own account.",
  already: 'You already manage this shop.',
} as const;

/** The link's secret, as the page sends it: letters, digits, - and _ (base64url), never more than 64. */
export const ManagerInviteCode = z.strictObject({
  code: z
    .string({ error: MANAGER_INVITE_MESSAGES.invalid })
    .trim()
    .min(1, MANAGER_INVITE_MESSAGES.invalid)
    .max(64, MANAGER_INVITE_MESSAGES.invalid)
    .regex(/^[A-Za-z0-9_-]+$/, MANAGER_INVITE_MESSAGES.invalid),
});
export type ManagerInviteCode = z.input<typeof ManagerInviteCode>;

export const ShopManager = z.object({
  userId: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  since: z.string(),
});
export type ShopManager = z.infer<typeof ShopManager>;

export const ManagerInvite = z.object({
  id: z.string(),
  codeHint: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type ManagerInvite = z.infer<typeof ManagerInvite>;
/** The code is in the answer that creates the invite, and nowhere else ever after. */
export const CreatedManagerInvite = ManagerInvite.extend({ code: z.string() });
export type CreatedManagerInvite = z.infer<typeof CreatedManagerInvite>;

export const ShopManagers = z.object({
  managers: z.array(ShopManager),
  invites: z.array(ManagerInvite),
});
export type ShopManagers = z.infer<typeof ShopManagers>;

/** The shop an invitation is for, shown before it is accepted. */
export const InvitePreview = z.object({ shopId: z.string(), shopName: z.string() });
export type InvitePreview = z.infer<typeof InvitePreview>;

/** A shop on a manager's "My shops" page, with how its offers and events stand with the mall office. */
export const ManagedShop = z.object({
  id: z.string(),
  name: z.string(),
  categoryName: z.string(),
  floorName: z.string(),
  /** Offers (new, or a change to a live one) waiting for the mall office's approval. */
  pendingOffers: z.number().int(),
  /** Offers the mall office sent back with a comment. */
  sentBackOffers: z.number().int(),
  /** The shop's events (new, or a change to a live one) waiting for approval. */
  pendingEvents: z.number().int(),
  /** The shop's events the mall office sent back with a comment. */
  sentBackEvents: z.number().int(),
});
export type ManagedShop = z.infer<typeof ManagedShop>;
export const ManagedShops = z.object({ shops: z.array(ManagedShop) });
export type ManagedShops = z.infer<typeof ManagedShops>;
