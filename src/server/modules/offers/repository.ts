import { and, asc, count, desc, eq, ilike, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  END_BEFORE_START,
  endNotBeforeStart,
  type Offer,
  type OfferInput,
  type OfferListQuery,
  type OfferPage,
  type OfferPatch,
  type OfferProposal,
  offerStatus,
  REVIEWED_FIELDS,
  type ReviewedOffer,
} from '../../../shared/offer';
import type { Db } from '../../db/client';
import { offers, products, shops, users } from '../../db/schema';
import { HttpError } from '../../errors';
import { containsPattern, FOREIGN_KEY_VIOLATION, pgError } from '../../lib/db-errors';
import { type Executor, readsOn, type Snapshot, type WriteTx } from '../../write-path';
import { reviewDigest, type Submission, waitForReview } from '../review-decisions';
import { activeOn, inactiveOn } from './rules';

export const offerNotFound = () => new HttpError(404, 'NOT_FOUND', 'Offer not found');

/** The only foreign key an offer has is its shop's. */
export function offerWriteError(error: unknown): HttpError | null {
  if (pgError(error)?.code !== FOREIGN_KEY_VIOLATION) return null;
  return new HttpError(400, 'VALIDATION', 'Shop is required', { shopId: 'Shop is required' });
}

const offerColumns = (today: string) => ({
  id: offers.id,
  title: offers.title,
  description: offers.description,
  discount: offers.discount,
  startDate: offers.startDate,
  endDate: offers.endDate,
  shopId: offers.shopId,
  shopName: shops.name,
  active: sql<boolean>`(${activeOn(today)})`,
  createdAt: offers.createdAt,
});

/** Offers as shoppers may see them: approved ones only (the caller adds the filter: `approvedOnly`). */
function selectOffers(db: Executor, today: string) {
  return db.select(offerColumns(today)).from(offers).innerJoin(shops, eq(shops.id, offers.shopId));
}

/** Shoppers see an offer once an admin approved it (docs/decisions/015). */
export const approvedOnly = eq(offers.approved, true);

const submitter = alias(users, 'submitter');

/** Offers with what awaits an admin: for the shop's managers and the approvals queue. */
function selectReviewed(db: Executor, today: string) {
  return db
    .select({
      ...offerColumns(today),
      approved: offers.approved,
      reviewState: offers.reviewState,
      proposal: offers.proposal,
      reviewComment: offers.reviewComment,
      submittedBy: submitter.email,
      submittedAt: offers.submittedAt,
    })
    .from(offers)
    .innerJoin(shops, eq(shops.id, offers.shopId))
    .leftJoin(submitter, eq(submitter.id, offers.submittedBy));
}

type OfferRow = Omit<Offer, 'createdAt' | 'status'> & { createdAt: Date };
/** Only the public fields, named one by one: nothing under review reaches a shopper's answer. */
const toOffer = (row: OfferRow, today: string): Offer => ({
  id: row.id,
  title: row.title,
  description: row.description,
  discount: row.discount,
  startDate: row.startDate,
  endDate: row.endDate,
  shopId: row.shopId,
  shopName: row.shopName,
  active: row.active,
  status: offerStatus(row, today),
  createdAt: row.createdAt.toISOString(),
});

type ReviewedRow = OfferRow & {
  approved: boolean;
  reviewState: 'pending' | 'sent_back' | null;
  proposal: OfferProposal | null;
  reviewComment: string | null;
  submittedBy: string | null;
  submittedAt: Date | null;
};
/** The version of what is under review (reviewDigest: docs/decisions/029). */
const reviewVersion = (row: ReviewedRow): string => reviewDigest(row, REVIEWED_FIELDS, row, row.proposal);

const toReviewed = (row: ReviewedRow, today: string): ReviewedOffer => ({
  ...toOffer(row, today),
  approved: row.approved,
  review: row.reviewState
    ? {
        state: row.reviewState,
        proposal: row.proposal,
        comment: row.reviewComment,
        submittedBy: row.submittedBy,
        submittedAt: row.submittedAt?.toISOString() ?? null,
        version: reviewVersion(row),
      }
    : null,
});

const NOT_PENDING = 'This offer is not waiting for approval (it may have been decided already)';
/** Refuses a decision on terms other than those the admin saw. */
export const CHANGED_SINCE_REVIEW =
  'The shop changed this offer after you opened it. Its latest terms are shown now: review them again.';

function requireVersion(before: ReviewedOffer, version: string): void {
  if (before.review?.version !== version) throw new HttpError(409, 'CHANGED', CHANGED_SINCE_REVIEW);
}

/** An offer as the audit log shows it. */
export function offerSnapshot(offer: Offer): Snapshot {
  const { title, description, discount, startDate, endDate, shopName } = offer;
  return { title, description, discount, startDate, endDate, shop: shopName };
}

/** A proposal as the log shows it: the terms proposed (null when nothing is proposed). */
export function proposalSnapshot(proposal: OfferProposal | null): Snapshot {
  const snapshot: Snapshot = {};
  for (const field of REVIEWED_FIELDS) snapshot[`proposed ${field}`] = proposal?.[field] ?? null;
  return snapshot;
}

/** The list's filters (the export takes the same ones): approved offers only. */
export function offerFilters(
  query: Pick<z.output<typeof OfferListQuery>, 'q' | 'shopId' | 'active'>,
  today: string,
): SQL | undefined {
  const { q, shopId, active } = query;
  const filters: SQL[] = [approvedOnly];
  if (q) filters.push(ilike(offers.title, containsPattern(q)));
  if (shopId) filters.push(eq(offers.shopId, shopId));
  if (active === 'true') filters.push(activeOn(today));
  if (active === 'false') filters.push(inactiveOn(today));
  return and(...filters);
}

/**
 * The offers' queries. Every read that says whether an offer is active takes the mall's date (`today`):
 * the routes pass the date of the request, so an answer is always the server's decision for that day.
 */
export function offerRepository(db: Db) {
  /** An approved offer, as shoppers see it. */
  async function find(id: string, today: string, tx: Executor = db): Promise<Offer | null> {
    const [row] = await selectOffers(tx, today).where(and(eq(offers.id, id), approvedOnly));
    return row ? toOffer(row, today) : null;
  }

  /** Any offer, with what awaits review. */
  async function findReviewed(id: string, today: string, tx: Executor = db): Promise<ReviewedOffer | null> {
    const [row] = await selectReviewed(tx, today).where(eq(offers.id, id));
    return row ? toReviewed(row, today) : null;
  }

  /** The offer as it is, its row locked until the write's transaction ends: one query, not two. */
  async function lockAndRead(tx: WriteTx, id: string, today: string): Promise<ReviewedOffer | null> {
    const [row] = await selectReviewed(tx, today).where(eq(offers.id, id)).for('update', { of: offers });
    return row ? toReviewed(row, today) : null;
  }

  async function reread(tx: WriteTx, id: string, today: string): Promise<ReviewedOffer> {
    const offer = await findReviewed(id, today, tx);
    if (!offer) throw offerNotFound();
    return offer;
  }

  return {
    find,
    findReviewed,

    async get(id: string, today: string, tx: Executor = db): Promise<Offer> {
      const offer = await find(id, today, tx);
      if (!offer) throw offerNotFound();
      return offer;
    },

    /** The shop an offer belongs to (any offer, approved or not), or null when there is none. */
    async shopOf(tx: Executor, id: string): Promise<string | null> {
      const [row] = await tx.select({ shopId: offers.shopId }).from(offers).where(eq(offers.id, id));
      return row?.shopId ?? null;
    },

    async list(
      query: z.output<typeof OfferListQuery>,
      today: string,
      tx: Executor = db,
    ): Promise<z.output<typeof OfferPage>> {
      const { page, pageSize } = query;
      const where = offerFilters(query, today);
      const [rows, [total]] = await readsOn(tx, db, [
        () =>
          selectOffers(tx, today)
            // Ending soonest first: what a shopper should not miss, and what an admin looks after.
            .where(where)
            .orderBy(
              desc(sql`(${activeOn(today)})`),
              asc(offers.endDate),
              asc(sql`lower(${offers.title})`),
              asc(offers.id),
            )
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        () => tx.select({ n: count() }).from(offers).where(where),
      ] as const);
      return { items: rows.map((row) => toOffer(row, today)), total: total?.n ?? 0, page, pageSize };
    },

    /** Every offer of a shop, approved or not, with its review: what the shop's managers look after. */
    async listForShop(shopId: string, today: string, tx: Executor = db): Promise<ReviewedOffer[]> {
      const rows = await selectReviewed(tx, today)
        .where(eq(offers.shopId, shopId))
        .orderBy(asc(offers.endDate), asc(sql`lower(${offers.title})`), asc(offers.id));
      return rows.map((row) => toReviewed(row, today));
    },

    /** The approvals queue: offers waiting for an admin, longest waiting first. */
    async listPending(today: string, tx: Executor = db): Promise<ReviewedOffer[]> {
      const rows = await selectReviewed(tx, today)
        .where(eq(offers.reviewState, 'pending'))
        .orderBy(asc(offers.submittedAt), asc(offers.id));
      return rows.map((row) => toReviewed(row, today));
    },

    async countActive(today: string, tx: Executor = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(offers)
        .where(and(approvedOnly, activeOn(today)));
      return row?.n ?? 0;
    },

    /** A new offer: live at once, or (a shop manager's) waiting for an admin's approval. */
    async insert(
      tx: WriteTx,
      values: z.output<typeof OfferInput>,
      today: string,
      submission: Submission | null = null,
    ): Promise<ReviewedOffer> {
      const [row] = await tx
        .insert(offers)
        .values(submission ? { ...values, approved: false, ...waitForReview(submission) } : values)
        .returning({ id: offers.id });
      if (!row) throw new Error('insert returned no row');
      return reread(tx, row.id, today);
    },

    /**
     * Checks the edit against the stored offer (the date pair as it will be stored; no move to another
     * shop while products use it), then applies it. The offer before and after; null when there is none.
     * A shop manager's edit (`submission`) waits for an admin: an unapproved offer is changed and
     * submitted again; an approved one keeps its live terms and the change is kept as a proposal.
     */
    async update(
      tx: WriteTx,
      id: string,
      patch: z.output<typeof OfferPatch>,
      today: string,
      submission: Submission | null = null,
    ): Promise<{ before: ReviewedOffer; after: ReviewedOffer; proposed: boolean } | null> {
      const before = await lockAndRead(tx, id, today);
      if (!before) return null;
      if (submission && patch.shopId && patch.shopId !== before.shopId) {
        const message = 'A shop manager cannot move an offer to another shop';
        throw new HttpError(403, 'FORBIDDEN', message);
      }
      if (submission && before.approved) {
        const proposal: OfferProposal = { ...(before.review?.proposal ?? {}) };
        for (const field of REVIEWED_FIELDS) {
          if (patch[field] === undefined) continue;
          if (patch[field] === before[field]) delete proposal[field];
          else Object.assign(proposal, { [field]: patch[field] });
        }
        if (!endNotBeforeStart({ ...before, ...proposal })) {
          throw new HttpError(400, 'VALIDATION', END_BEFORE_START, { endDate: END_BEFORE_START });
        }
        const empty = Object.keys(proposal).length === 0;
        await tx
          .update(offers)
          .set(
            empty
              ? { proposal: null, reviewState: null, reviewComment: null }
              : { proposal, ...waitForReview(submission) },
          )
          .where(eq(offers.id, id));
        return { before, after: await reread(tx, id, today), proposed: true };
      }
      if (!endNotBeforeStart({ ...before, ...patch })) {
        throw new HttpError(400, 'VALIDATION', END_BEFORE_START, { endDate: END_BEFORE_START });
      }
      if (patch.shopId && patch.shopId !== before.shopId) {
        const [used] = await tx.select({ n: count() }).from(products).where(eq(products.offerId, id));
        const n = used?.n ?? 0;
        if (n > 0) {
          throw new HttpError(
            409,
            'IN_USE',
            `${n} ${n === 1 ? 'product uses' : 'products use'} this offer; remove it from them before moving the offer to another shop.`,
          );
        }
      }
      const changes = submission ? { ...patch, ...waitForReview(submission) } : patch;
      if (Object.keys(changes).length > 0) await tx.update(offers).set(changes).where(eq(offers.id, id));
      return { before, after: await reread(tx, id, today), proposed: false };
    },

    /**
     * An admin approves what waits: a new offer goes live, or a proposal's terms replace the live
     * ones. Refused when nothing waits (decided already, or changed back).
     */
    async approve(
      tx: WriteTx,
      id: string,
      version: string,
      today: string,
    ): Promise<{ before: ReviewedOffer; after: ReviewedOffer } | null> {
      const before = await lockAndRead(tx, id, today);
      if (!before) return null;
      if (before.review?.state !== 'pending') throw new HttpError(409, 'NOT_PENDING', NOT_PENDING);
      requireVersion(before, version);
      const terms = before.review.proposal ?? {};
      if (!endNotBeforeStart({ ...before, ...terms })) {
        throw new HttpError(409, 'VALIDATION', `${END_BEFORE_START}: send it back to the shop`);
      }
      await tx
        .update(offers)
        .set({
          ...terms,
          approved: true,
          proposal: null,
          reviewState: null,
          reviewComment: null,
          submittedBy: null,
          submittedAt: null,
        })
        .where(eq(offers.id, id));
      return { before, after: await reread(tx, id, today) };
    },

    /** An admin sends what waits back to the shop with a comment; the live terms stay as they are. */
    async sendBack(
      tx: WriteTx,
      id: string,
      decision: { comment: string; version: string },
      today: string,
    ): Promise<ReviewedOffer | null> {
      const before = await lockAndRead(tx, id, today);
      if (!before) return null;
      if (before.review?.state !== 'pending') throw new HttpError(409, 'NOT_PENDING', NOT_PENDING);
      requireVersion(before, decision.version);
      const { comment } = decision;
      await tx
        .update(offers)
        .set({ reviewState: 'sent_back', reviewComment: comment })
        .where(eq(offers.id, id));
      return reread(tx, id, today);
    },

    /** Deletes the offer; the products' foreign key clears their offer in the same statement. */
    async delete(
      tx: WriteTx,
      id: string,
      today: string,
    ): Promise<{ offer: Offer; products: { id: string; name: string }[] } | null> {
      const offer = await lockAndRead(tx, id, today);
      if (!offer) return null;
      const using = await tx
        .select({ id: products.id, name: products.name })
        .from(products)
        .where(eq(products.offerId, id));
      await tx.delete(offers).where(eq(offers.id, id));
      return { offer, products: using };
    },
  };
}
