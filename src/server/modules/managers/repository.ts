import { and, asc, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { CreatedManagerInvite, ManagedShop, ManagerInvite, ShopManager } from '../../../shared/managers';
import { newSessionToken, sha256 } from '../../auth/tokens';
import type { Db } from '../../db/client';
import {
  categories,
  events,
  floors,
  managerInvites,
  offers,
  shopManagers,
  shops,
  users,
} from '../../db/schema';
import { type Executor, readsOn, type WriteTx } from '../../write-path';

/** As long as an admin invite: a week. */
export const MANAGER_INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** The log names an invite by its hint and shop: the code itself never reaches it. */
export const managerInviteName = (codeHint: string, shopName: string) =>
  `Manager invite …${codeHint} for ${shopName}`;
/** The log names a membership by the person and the shop. */
export const membershipName = (email: string, shopName: string) => `${email} manages ${shopName}`;

type InviteRow = typeof managerInvites.$inferSelect;
const toInvite = (row: InviteRow): ManagerInvite => ({
  id: row.id,
  codeHint: row.codeHint,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

/** The shops a person manages (their ids), as the session lookup reads them. */
export async function managedShopsOf(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ shopId: shopManagers.shopId })
    .from(shopManagers)
    .where(eq(shopManagers.userId, userId))
    .orderBy(asc(shopManagers.createdAt), asc(shopManagers.shopId));
  return rows.map((row) => row.shopId);
}

export function managerRepository(db: Db) {
  return {
    /** A shop's managers (oldest first) and its open invites. */
    async ofShop(
      shopId: string,
      now: Date,
      tx: Executor = db,
    ): Promise<{ managers: ShopManager[]; invites: ManagerInvite[] }> {
      const [managers, invites] = await readsOn(tx, db, [
        () =>
          tx
            .select({
              userId: users.id,
              email: users.email,
              displayName: users.displayName,
              since: shopManagers.createdAt,
            })
            .from(shopManagers)
            .innerJoin(users, eq(users.id, shopManagers.userId))
            .where(eq(shopManagers.shopId, shopId))
            .orderBy(asc(shopManagers.createdAt), asc(users.email)),
        () =>
          tx
            .select()
            .from(managerInvites)
            .where(
              and(
                eq(managerInvites.shopId, shopId),
                isNull(managerInvites.usedAt),
                gt(managerInvites.expiresAt, now),
              ),
            )
            .orderBy(asc(managerInvites.createdAt)),
      ] as const);
      return {
        managers: managers.map((row) => ({ ...row, since: row.since.toISOString() })),
        invites: invites.map(toInvite),
      };
    },

    /** A one-time link's code for `shopId`; only its hash is stored. */
    async createInvite(
      tx: WriteTx,
      shopId: string,
      createdBy: string | null,
      now: Date,
    ): Promise<CreatedManagerInvite> {
      const code = newSessionToken();
      const [row] = await tx
        .insert(managerInvites)
        .values({
          shopId,
          codeHash: sha256(code),
          codeHint: code.slice(-4),
          createdBy,
          createdAt: now,
          expiresAt: new Date(now.getTime() + MANAGER_INVITE_LIFETIME_MS),
        })
        .returning();
      if (!row) throw new Error('invite insert returned no row');
      return { ...toInvite(row), code };
    },

    /** Revokes an open invite of the shop; returns it, or null when there is no such open invite. */
    async revokeInvite(tx: WriteTx, shopId: string, id: string): Promise<ManagerInvite | null> {
      const [row] = await tx
        .delete(managerInvites)
        .where(
          and(eq(managerInvites.id, id), eq(managerInvites.shopId, shopId), isNull(managerInvites.usedAt)),
        )
        .returning();
      return row ? toInvite(row) : null;
    },

    /** The open invite a code names, with its shop; null when used, revoked, expired or never made. */
    async findOpenInvite(
      code: string,
      now: Date,
      tx: Executor = db,
    ): Promise<{ id: string; codeHint: string; shopId: string; shopName: string } | null> {
      const [row] = await tx
        .select({
          id: managerInvites.id,
          codeHint: managerInvites.codeHint,
          shopId: managerInvites.shopId,
          shopName: shops.name,
        })
        .from(managerInvites)
        .innerJoin(shops, eq(shops.id, managerInvites.shopId))
        .where(
          and(
            eq(managerInvites.codeHash, sha256(code)),
            isNull(managerInvites.usedAt),
            gt(managerInvites.expiresAt, now),
          ),
        );
      return row ?? null;
    },

    /**
     * Spends the invite for `userId`: a conditional update, so of any number of requests racing with
     * one code, on any number of servers, exactly one gets it. Null when it was not open.
     */
    async spendInvite(
      tx: WriteTx,
      code: string,
      userId: string,
      now: Date,
    ): Promise<{ id: string; codeHint: string; shopId: string } | null> {
      const [row] = await tx
        .update(managerInvites)
        .set({ usedAt: now, usedBy: userId })
        .where(
          and(
            eq(managerInvites.codeHash, sha256(code)),
            isNull(managerInvites.usedAt),
            gt(managerInvites.expiresAt, now),
          ),
        )
        .returning({
          id: managerInvites.id,
          codeHint: managerInvites.codeHint,
          shopId: managerInvites.shopId,
        });
      return row ?? null;
    },

    /** Adds the membership; null when the person manages the shop already. */
    async addManager(tx: WriteTx, shopId: string, userId: string, now: Date): Promise<string | null> {
      const [row] = await tx
        .insert(shopManagers)
        .values({ shopId, userId, createdAt: now })
        .onConflictDoNothing()
        .returning({ id: shopManagers.id });
      return row?.id ?? null;
    },

    /** Removes the membership; returns it (for the log), or null when there was none. */
    async removeManager(
      tx: WriteTx,
      shopId: string,
      userId: string,
    ): Promise<{ id: string; email: string } | null> {
      const [row] = await tx
        .delete(shopManagers)
        .where(and(eq(shopManagers.shopId, shopId), eq(shopManagers.userId, userId)))
        .returning({ id: shopManagers.id });
      if (!row) return null;
      const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
      return { id: row.id, email: user?.email ?? userId };
    },

    /**
     * The shops with these ids, by name, with how many of their offers and events wait for or came back
     * from review.
     */
    async managedShops(shopIds: readonly string[], tx: Executor = db): Promise<ManagedShop[]> {
      if (shopIds.length === 0) return [];
      const ids = [...shopIds];
      const offerReviews = tx
        .select({
          shopId: offers.shopId,
          pending: sql<number>`(count(*) filter (where ${offers.reviewState} = 'pending'))::int`.as(
            'pending',
          ),
          sentBack: sql<number>`(count(*) filter (where ${offers.reviewState} = 'sent_back'))::int`.as(
            'sent_back',
          ),
        })
        .from(offers)
        .where(inArray(offers.shopId, ids))
        .groupBy(offers.shopId)
        .as('offer_reviews');
      // A shop's events as its managers see them (events.shop_id: the organizer), as the offers'.
      const eventReviews = tx
        .select({
          shopId: sql<string>`${events.shopId}`.as('event_shop_id'),
          pending: sql<number>`(count(*) filter (where ${events.reviewState} = 'pending'))::int`.as(
            'event_pending',
          ),
          sentBack: sql<number>`(count(*) filter (where ${events.reviewState} = 'sent_back'))::int`.as(
            'event_sent_back',
          ),
        })
        .from(events)
        .where(and(inArray(events.shopId, ids), sql`${events.reviewState} is not null`))
        .groupBy(events.shopId)
        .as('event_reviews');
      const rows = await tx
        .select({
          id: shops.id,
          name: shops.name,
          categoryName: categories.name,
          floorName: floors.name,
          pendingOffers: sql<number>`coalesce(${offerReviews.pending}, 0)`,
          sentBackOffers: sql<number>`coalesce(${offerReviews.sentBack}, 0)`,
          pendingEvents: sql<number>`coalesce(${eventReviews.pending}, 0)`,
          sentBackEvents: sql<number>`coalesce(${eventReviews.sentBack}, 0)`,
        })
        .from(shops)
        .innerJoin(categories, eq(categories.id, shops.categoryId))
        .innerJoin(floors, eq(floors.id, shops.floorId))
        .leftJoin(offerReviews, eq(offerReviews.shopId, shops.id))
        .leftJoin(eventReviews, eq(eventReviews.shopId, shops.id))
        .where(inArray(shops.id, ids))
        .orderBy(asc(sql`lower(${shops.name})`), asc(shops.id));
      return rows.map((row) => ({
        ...row,
        pendingOffers: Number(row.pendingOffers),
        sentBackOffers: Number(row.sentBackOffers),
        pendingEvents: Number(row.pendingEvents),
        sentBackEvents: Number(row.sentBackEvents),
      }));
    },

    async shopName(shopId: string, tx: Executor = db): Promise<string | null> {
      const [row] = await tx.select({ name: shops.name }).from(shops).where(eq(shops.id, shopId));
      return row?.name ?? null;
    },

    async countPending(tx: Executor = db): Promise<number> {
      const [row] = await tx.select({ n: count() }).from(offers).where(eq(offers.reviewState, 'pending'));
      return row?.n ?? 0;
    },
  };
}
