import type { Role } from './roles';

/**
 * The one permission policy: who may do what. The server's route guards ask it (a route declares its
 * `permission` in its config: auth/guards.ts), the authorization matrix test derives its expectations
 * from it, and the client asks it before it shows a control. A rule may look at the record (`record`):
 * a shop manager may change only their own shop's page, products and offers (docs/decisions/015).
 *
 * Asked without a record, `can` answers "may this person do this to some record of this kind": the
 * route's guard asks that before validation; the route asks again with the record once it has it.
 */
export const RESOURCES = [
  'category',
  'floor',
  'amenity',
  'shop',
  'product',
  'offer',
  /** The mall's and the shops' events (issue 35): a shop's managers submit their shop's for approval. */
  'event',
  'invite',
  'stats',
  'audit',
  /** A shop's managers and the invites to become one: the mall office's. */
  'manager',
  /** Accepting an invite to manage a shop: any signed-in person with the invite's code. */
  'membership',
  /** The "My shops" area: the shops a person manages, their offers under review, their history. */
  'managed-shop',
  /** The approvals queue: deciding on offers and events shop managers submitted. */
  'offer-review',
  /** The mall itself: its opening hours. */
  'mall',
  /** A person's own account: their display name, password and sessions (never anyone else's). */
  'account',
  /** Bulk import and export of the directory (CSV): the mall office's. */
  'import',
  /**
   * What shoppers looked at and searched for (docs/decisions/035): the mall office's; a shop's managers
   * read their own shop's numbers.
   */
  'insights',
  /** Reporting what a shopper looked at (a view, a search, a tap): anyone who may browse the directory. */
  'insight-hit',
  /** Search synonyms ("loo" → toilets): the mall office's. */
  'synonym',
] as const;
export type Resource = (typeof RESOURCES)[number];

export const ACTIONS = ['read', 'create', 'update', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

/** Whoever acts: a signed-in person (their id and role), or null for a visitor. */
export interface Actor {
  id: string;
  role: Role;
  /** The shops this person manages (a user account with memberships: a shop manager). */
  managedShopIds?: readonly string[];
}

/** What a record-dependent rule may look at. */
export interface PermissionRecord {
  /** The shop the record is, or belongs to. */
  shopId?: string;
  /** The fields a change touches (a shop's, for the fields a manager may not change). */
  fields?: readonly string[];
}

/**
 * What a shop manager may change on their shop's page: not its name, category or floor (the mall's
 * directory structure stays with admins).
 */
export const MANAGER_SHOP_FIELDS: readonly string[] = [
  'description',
  'location',
  'contact',
  'openingHours',
  'hours',
  // The shop's images (docs/decisions/020).
  'logo',
  'cover',
];

export interface Permission {
  action: Action;
  resource: Resource;
  /**
   * The record every call of the route is about, when its path names none: `{}` for the mall's own (no
   * shop's), so a rule about a shop's own refuses at the guard — a manager reads their shop's insights,
   * not the mall's report. Unset: the route asks again once it has loaded the record.
   */
  record?: PermissionRecord;
}

/** The directory shoppers browse: every signed-in person reads it (spec: the directory is for members). */
const DIRECTORY: readonly Resource[] = ['category', 'floor', 'amenity', 'shop', 'product', 'offer', 'event'];

type Rule = (actor: Actor, record: PermissionRecord | undefined) => boolean;
const always: Rule = () => true;

/** A manager of the record's shop; without a record, a manager of any shop. */
const managesShop: Rule = (actor, record) => {
  const shops = actor.managedShopIds ?? [];
  if (record === undefined) return shops.length > 0;
  return record.shopId !== undefined && shops.includes(record.shopId);
};
/** A manager of the shop, changing only the fields a manager may. */
const editsOwnListing: Rule = (actor, record) =>
  managesShop(actor, record) && (record?.fields ?? []).every((field) => MANAGER_SHOP_FIELDS.includes(field));

/**
 * A manager of the event's shop, not changing its image: an image goes live as it is uploaded, with no
 * review, so an event's picture is the mall office's (docs/decisions/036).
 */
const editsOwnEvent: Rule = (actor, record) =>
  managesShop(actor, record) && !(record?.fields ?? []).includes('image');

/** Per role, per resource, per action: the rule. A missing entry is a no. */
const POLICY: Record<Role, Partial<Record<Resource, Partial<Record<Action, Rule>>>>> = {
  user: {
    ...Object.fromEntries(DIRECTORY.map((resource) => [resource, { read: always }])),
    shop: { read: always, update: editsOwnListing },
    product: { read: always, create: managesShop, update: managesShop, delete: managesShop },
    // Offers a manager creates or changes wait for an admin (offer-review) before shoppers see them.
    offer: { read: always, create: managesShop, update: managesShop },
    // The same for events: a manager's new event or change waits for an admin (offer-review).
    event: { read: always, create: managesShop, update: editsOwnEvent },
    membership: { read: always, create: always },
    'managed-shop': { read: managesShop },
    account: { update: always },
    // A shop's own numbers only: the route asks again with the shop (record) before it reads them.
    insights: { read: managesShop },
    'insight-hit': { create: always },
  },
  admin: Object.fromEntries(
    RESOURCES.map((resource) => [resource, Object.fromEntries(ACTIONS.map((action) => [action, always]))]),
  ),
};

/**
 * What a visitor (no account) may do: read the directory shoppers browse, and only while the mall's
 * public directory is on (MALL_PUBLIC_DIRECTORY, docs/decisions/034). Its reads answer the same for
 * everyone: approved offers only, no managers, no accounts.
 */
export function visitorMay(action: Action, resource: Resource, publicDirectory: boolean): boolean {
  if (!publicDirectory) return false;
  // Browsing the public directory is counted like a signed-in shopper's (nothing about who: decision 035).
  return (
    (action === 'read' && DIRECTORY.includes(resource)) || (action === 'create' && resource === 'insight-hit')
  );
}

/** May `actor` do `action` on `resource` (this `record`, when the rule depends on it)? */
export function can(
  actor: Actor | null | undefined,
  action: Action,
  resource: Resource,
  record?: PermissionRecord,
): boolean {
  if (!actor) return false;
  const rule = POLICY[actor.role]?.[resource]?.[action];
  return rule ? rule(actor, record) : false;
}
