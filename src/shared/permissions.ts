import type { Role } from './roles';

/**
 * The one permission policy: who may do what. The server's route guards ask it (a route declares its
 * `permission` in its config: auth/guards.ts), the authorization matrix test derives its expectations
 * from it, and the client asks it before it shows a control. A rule may look at the record (`record`):
 * the shop managers of the next issue may change only their own shop.
 */
export const RESOURCES = [
  'category',
  'floor',
  'shop',
  'product',
  'offer',
  'invite',
  'stats',
  'audit',
  /** The mall itself: its opening hours. */
  'mall',
] as const;
export type Resource = (typeof RESOURCES)[number];

export const ACTIONS = ['read', 'create', 'update', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

/** Whoever acts: a signed-in person (their id and role), or null for a visitor. */
export interface Actor {
  id: string;
  role: Role;
}

/** What a record-dependent rule may look at. */
export interface PermissionRecord {
  /** The shop the record is, or belongs to. */
  shopId?: string;
}

export interface Permission {
  action: Action;
  resource: Resource;
}

/** The directory shoppers browse: every signed-in person reads it (spec: the directory is for members). */
const DIRECTORY: readonly Resource[] = ['category', 'floor', 'shop', 'product', 'offer'];

type Rule = (actor: Actor, record: PermissionRecord | undefined) => boolean;
const always: Rule = () => true;

/** Per role, per resource, per action: the rule. A missing entry is a no. */
const POLICY: Record<Role, Partial<Record<Resource, Partial<Record<Action, Rule>>>>> = {
  user: Object.fromEntries(DIRECTORY.map((resource) => [resource, { read: always }])),
  admin: Object.fromEntries(
    RESOURCES.map((resource) => [resource, Object.fromEntries(ACTIONS.map((action) => [action, always]))]),
  ),
};

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
