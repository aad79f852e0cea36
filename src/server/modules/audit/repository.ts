import { and, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type AuditEntry,
  type AuditListQuery,
  type AuditPage,
  MALL_OFFICE,
  SHOP_HISTORY_ENTITY_TYPES,
} from '../../../shared/audit';
import type { Db } from '../../db/client';
import {
  adminInvites,
  amenities,
  auditLog,
  categories,
  events,
  floors,
  importRuns,
  managerInvites,
  offers,
  products,
  searchSynonyms,
  shopManagers,
  shops,
  users,
} from '../../db/schema';
import { type Executor, readsOn } from '../../write-path';

/** Whether the entry's record still exists, per kind of record (the Activity screen links to it then). */
const entityExists = sql<boolean>`case ${auditLog.entityType}
  when 'shop' then exists (select 1 from ${shops} where ${shops.id} = ${auditLog.entityId})
  when 'product' then exists (select 1 from ${products} where ${products.id} = ${auditLog.entityId})
  when 'offer' then exists (select 1 from ${offers} where ${offers.id} = ${auditLog.entityId})
  when 'event' then exists (select 1 from ${events} where ${events.id} = ${auditLog.entityId})
  when 'category' then exists (select 1 from ${categories} where ${categories.id} = ${auditLog.entityId})
  when 'floor' then exists (select 1 from ${floors} where ${floors.id} = ${auditLog.entityId})
  when 'amenity' then exists (select 1 from ${amenities} where ${amenities.id} = ${auditLog.entityId})
  when 'account' then exists (select 1 from ${users} where ${users.id} = ${auditLog.entityId})
  when 'invite' then exists (select 1 from ${adminInvites} where ${adminInvites.id} = ${auditLog.entityId})
    or exists (select 1 from ${managerInvites} where ${managerInvites.id} = ${auditLog.entityId})
  when 'membership' then exists (select 1 from ${shopManagers} where ${shopManagers.id} = ${auditLog.entityId})
  when 'import' then exists (select 1 from ${importRuns} where ${importRuns.id} = ${auditLog.entityId})
  when 'synonym' then exists (select 1 from ${searchSynonyms} where ${searchSynonyms.id} = ${auditLog.entityId})
  else false end`;

/**
 * The start of mall date `day` (YYYY-MM-DD) in `timeZone`, as a timestamp; `daysLater` moves the date
 * before the zone is applied, so a day with a daylight-saving change is 23 or 25 hours long, as it is.
 */
const startOfDay = (day: string, timeZone: string, daysLater = 0) =>
  sql`((${day}::date + ${daysLater}::int)::timestamp at time zone ${timeZone})`;

/** An unapproved offer's review state (the admin's offer form has approved offers only). */
const entityReview = sql<'pending' | 'sent_back' | null>`case when ${auditLog.entityType} = 'offer' then
  (select ${offers.reviewState} from ${offers} where ${offers.id} = ${auditLog.entityId} and not ${offers.approved})
  when ${auditLog.entityType} = 'event' then
  (select ${events.reviewState} from ${events} where ${events.id} = ${auditLog.entityId} and not ${events.approved})
  end`;

type Row = typeof auditLog.$inferSelect & {
  entityExists: boolean;
  entityReview: 'pending' | 'sent_back' | null;
};

function toEntry(row: Row): AuditEntry {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    entityType: row.entityType as AuditEntry['entityType'],
    entityId: row.entityId,
    entityName: row.entityName,
    action: row.action as AuditEntry['action'],
    changes: row.changes,
    detail: row.detail ?? null,
    entityExists: row.entityExists,
    entityReview: row.entityReview ?? null,
    shopId: row.shopId,
  };
}

/** Fields a shop manager's history never carries, at any depth: an invite's code hint. */
const NOT_FOR_MANAGERS = new Set(['codeHint']);

/**
 * Who a shop manager's history may name, and how it names the rest. Accounts that are not admins (roles
 * only ever go from user to admin, and accounts are never deleted, so such an account was no admin when it
 * acted either): the shop's managers, shown as they are. Admins: by `label`, never their email.
 */
interface ShopHistoryPeople {
  /** Ids of accounts that are not admins. */
  shown: ReadonlySet<string>;
  /** Admin accounts' ids → how a manager sees them. */
  adminLabels: ReadonlyMap<string, string>;
  /** Admin accounts' emails, lower case → how a manager sees them. */
  adminEmails: ReadonlyMap<string, string>;
}

/** Any admin's email inside a text (one pattern for all of them, made once per page); null when none. */
function adminEmailPattern(people: ShopHistoryPeople): RegExp | null {
  const emails = [...people.adminEmails.keys()].sort((a, b) => b.length - a.length);
  return emails.length > 0 ? new RegExp(emails.map(escapeRegExp).join('|'), 'gi') : null;
}

/** `text` with every admin's email in it, whole or inside, replaced by how a manager sees that admin. */
function withoutAdminEmails(text: string, people: ShopHistoryPeople, pattern: RegExp | null): string {
  return pattern
    ? text.replace(pattern, (email) => people.adminEmails.get(email.toLowerCase()) ?? MALL_OFFICE)
    : text;
}

/** "Dana (the mall office)" for an admin with a display name (one that is no email), else "the mall office". */
function mallOfficeLabel(displayName: string | null): string {
  const name = displayName?.trim();
  return name && !name.includes('@') ? `${name} (${MALL_OFFICE})` : MALL_OFFICE;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Texts the log writes about people, where an admin's email can stand: a membership entry's name and
 * changes (the manager's email), and in the detail who submitted an offer, whose account it was, and an
 * admin's send-back comment. Only these are rewritten: what a shop's page, products and offers say is
 * the manager's own text, and rewriting an admin's email there would tell them whose email it is (type a
 * guess into the shop's contact, read it back as "the mall office").
 */
const ABOUT_PEOPLE = new Set(['submittedBy', 'account', 'comment']);

/**
 * `value` with hint fields dropped at any depth, and its texts `rewritten where `all` says so or under an
 * ABOUT_PEOPLE key.
 */
function scrubbed(value: unknown, all: boolean, rewrite: (text: string) => string): unknown {
  if (typeof value === 'string') return all ? rewrite(value) : value;
  if (Array.isArray(value)) return value.map((inner) => scrubbed(inner, all, rewrite));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !NOT_FOR_MANAGERS.has(key))
      .map(([key, inner]) => [key, scrubbed(inner, all || ABOUT_PEOPLE.has(key), rewrite)]),
  );
}

/**
 * An entry as a shop manager reads it (docs/security.md): the shop's managers as they are; an admin as
 * `mallOfficeLabel`, the command line (or any account not known) as "the mall office", with no id; no
 * admin's email in a text the log writes about people (ABOUT_PEOPLE, membership entries) and no code
 * hint anywhere. The admins' Activity screen reads the log as it is.
 */
function asShopManagerSees(entry: AuditEntry, people: ShopHistoryPeople, pattern: RegExp | null): AuditEntry {
  const shown = entry.actorId !== null && people.shown.has(entry.actorId);
  const rewrite = (text: string) => withoutAdminEmails(text, people, pattern);
  // a membership entry is about a person throughout; elsewhere only ABOUT_PEOPLE values are
  const membership = entry.entityType === 'membership';
  return {
    ...entry,
    actorId: shown ? entry.actorId : null,
    actorEmail: shown
      ? entry.actorEmail
      : ((entry.actorId !== null ? people.adminLabels.get(entry.actorId) : undefined) ?? MALL_OFFICE),
    entityName: membership ? rewrite(entry.entityName) : entry.entityName,
    changes: scrubbed(entry.changes, membership, rewrite) as AuditEntry['changes'],
    detail:
      entry.detail === null ? null : (scrubbed(entry.detail, membership, rewrite) as AuditEntry['detail']),
  };
}

/** Reading the audit log. Writing it is the write path's alone (write-path.ts); nothing here changes it. */
export function auditRepository(db: Db) {
  /** A page of the entries `filters` select, newest first. */
  async function pageOf(
    filters: SQL[],
    page: number,
    pageSize: number,
    tx: Executor,
  ): Promise<z.output<typeof AuditPage>> {
    const where = filters.length > 0 ? and(...filters) : undefined;
    const [rows, [total]] = await readsOn(tx, db, [
      () =>
        tx
          .select({
            id: auditLog.id,
            at: auditLog.at,
            actorId: auditLog.actorId,
            actorEmail: auditLog.actorEmail,
            entityType: auditLog.entityType,
            entityId: auditLog.entityId,
            entityName: auditLog.entityName,
            action: auditLog.action,
            changes: auditLog.changes,
            detail: auditLog.detail,
            shopId: auditLog.shopId,
            entityExists,
            entityReview,
          })
          .from(auditLog)
          .where(where)
          // Newest first: ids follow insertion (the primary key read backwards, no sort).
          .orderBy(desc(auditLog.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
      () => tx.select({ n: count() }).from(auditLog).where(where),
    ] as const);
    return { items: rows.map(toEntry), total: total?.n ?? 0, page, pageSize };
  }

  return {
    /** Newest first; dates are the mall's calendar days, `to` included. The admins' Activity screen. */
    async list(
      query: z.output<typeof AuditListQuery>,
      timeZone: string,
      tx: Executor = db,
    ): Promise<z.output<typeof AuditPage>> {
      const { entityType, entityId, actorId, from, to, page, pageSize } = query;
      const filters: SQL[] = [];
      if (entityType) filters.push(eq(auditLog.entityType, entityType));
      if (entityId) filters.push(eq(auditLog.entityId, entityId));
      if (actorId) filters.push(eq(auditLog.actorId, actorId));
      if (from) filters.push(sql`${auditLog.at} >= ${startOfDay(from, timeZone)}`);
      if (to) filters.push(sql`${auditLog.at} < ${startOfDay(to, timeZone, 1)}`);
      return pageOf(filters, page, pageSize, tx);
    },

    /**
     * A shop manager's view of their own shop's history, newest first: the shop, its products, offers and
     * managers (SHOP_HISTORY_ENTITY_TYPES; never the mall office's invites), each entry as
     * `asShopManagerSees` tells.
     */
    async shopHistory(
      shopId: string,
      query: Pick<z.output<typeof AuditListQuery>, 'page' | 'pageSize'>,
      tx: Executor = db,
    ): Promise<z.output<typeof AuditPage>> {
      const found = await pageOf(
        [eq(auditLog.shopId, shopId), inArray(auditLog.entityType, [...SHOP_HISTORY_ENTITY_TYPES])],
        query.page,
        query.pageSize,
        tx,
      );
      const actorIds = [...new Set(found.items.flatMap((entry) => (entry.actorId ? [entry.actorId] : [])))];
      // Every admin (a handful), for their emails anywhere in an entry; and the page's actors.
      const accounts = await tx
        .select({ id: users.id, email: users.email, role: users.role, displayName: users.displayName })
        .from(users)
        .where(
          actorIds.length > 0
            ? or(eq(users.role, 'admin'), inArray(users.id, actorIds))
            : eq(users.role, 'admin'),
        );
      const people = {
        shown: new Set<string>(),
        adminLabels: new Map<string, string>(),
        adminEmails: new Map<string, string>(),
      };
      for (const account of accounts) {
        if (account.role !== 'admin') {
          people.shown.add(account.id);
          continue;
        }
        const label = mallOfficeLabel(account.displayName);
        people.adminLabels.set(account.id, label);
        people.adminEmails.set(account.email.toLowerCase(), label);
      }
      const pattern = adminEmailPattern(people);
      return { ...found, items: found.items.map((entry) => asShopManagerSees(entry, people, pattern)) };
    },
    /** Everyone the log names as having acted, with the email of their latest entry. */
    async actors(tx: Executor = db): Promise<{ id: string; email: string }[]> {
      const { rows } = await tx.execute<{ id: string; email: string }>(sql`
        select id, email from (
          select distinct on (${auditLog.actorId}) ${auditLog.actorId} as id, ${auditLog.actorEmail} as email
            from ${auditLog} where ${auditLog.actorId} is not null
            order by ${auditLog.actorId}, ${auditLog.id} desc) as actors
        order by lower(email)`);
      return rows;
    },
  };
}
