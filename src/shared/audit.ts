import './zod-config';
import { z } from 'zod';
import { calendarDate, REVIEW_STATES } from './offer';
import { PageQuery, pageSchema } from './text';

/**
 * The audit log: who changed the mall, when, and what. Written by the server's one write path in the same
 * transaction as the change (server/write-path.ts); read by admins on the Activity screen.
 */
export const AUDIT_ENTITY_TYPES = [
  'shop',
  'product',
  'offer',
  /** The mall's and the shops' events (issue 35). */
  'event',
  'category',
  'floor',
  'amenity',
  'account',
  'invite',
  'audit',
  /** A person's membership in a shop: a shop manager added or removed. */
  'membership',
  'mall',
  /** A bulk import run (its file name, kind and counts); each record it changed has its own entry. */
  'import',
  /** A search synonym ("loo" → toilets: docs/decisions/035). */
  'synonym',
] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

/**
 * create / update / delete a record; `use`: an invite redeemed; `prune`: old entries removed; `submit`:
 * a shop manager's offer or change sent for approval; `approve` / `send_back`: an admin's decision on it.
 */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'use',
  'prune',
  'submit',
  'approve',
  'send_back',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** How a shop manager's history names an admin or the command line: never by an email (docs/security.md). */
export const MALL_OFFICE = 'the mall office';

/**
 * What a shop manager's history shows: their shop, its products, offers and managers. Never the mall
 * office's invites (their code hints), nor any kind added later until it is added here.
 */
export const SHOP_HISTORY_ENTITY_TYPES = [
  'shop',
  'product',
  'offer',
  'event',
  'membership',
] as const satisfies readonly AuditEntityType[];

/** A field's value before and after (null where it did not exist: a create's before, a delete's after). */
export const AuditChange = z.object({ before: z.unknown(), after: z.unknown() });

export const AuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  /**
   * The account that acted; null for the command line (`npm run admin:create`, `audit:prune`), and in a
   * shop manager's history for everyone but the shop's managers (the mall office's ids are not theirs).
   */
  actorId: z.string().nullable(),
  /**
   * The account's email when it acted; the command's name for the command line. In a shop manager's
   * history an admin or the command line is `MALL_OFFICE` (or "Dana (the mall office)" for an admin with
   * a display name), never an email.
   */
  actorEmail: z.string(),
  entityType: z.enum(AUDIT_ENTITY_TYPES),
  entityId: z.string().nullable(),
  entityName: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  /** Only the fields that changed. */
  changes: z.record(z.string(), AuditChange),
  /** What else went with it: a shop delete's products and offers, a prune's cut-off, an invite's hint. */
  detail: z.record(z.string(), z.unknown()).nullable(),
  /** Whether the record still exists (the Activity screen links to it then). */
  entityExists: z.boolean(),
  /**
   * An offer no admin has approved yet: whether it waits for one (the approvals screen has it) or was sent
   * back to its shop's managers; null for everything else. The offers list shows approved offers only.
   */
  entityReview: z.enum(REVIEW_STATES).nullable(),
  /** The shop the record is or belongs to (null for the rest, and for entries before migration 0007). */
  shopId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditPage = pageSchema(AuditEntry);
export type AuditPage = z.infer<typeof AuditPage>;

/** A real calendar date (1900–9999), as the offer form takes it: "2026-02-31" is refused, not cast. */
const day = calendarDate('Enter a date as YYYY-MM-DD');

export const AuditListQuery = z.strictObject({
  ...PageQuery.shape,
  entityType: z.enum(AUDIT_ENTITY_TYPES, { error: 'Unknown kind of record' }).optional(),
  entityId: z.uuid('Unknown record').optional(),
  actorId: z.uuid('Unknown person').optional(),
  /** From the start of this mall date… */
  from: day.optional(),
  /** …to the end of this one, in the mall's time zone. */
  to: day.optional(),
});
export type AuditListQuery = z.input<typeof AuditListQuery>;

/** The people who appear in the log, for the Activity screen's person filter. */
export const AuditActor = z.object({ id: z.string(), email: z.string() });
export const AuditActors = z.object({ items: z.array(AuditActor) });
export type AuditActors = z.infer<typeof AuditActors>;
