import { and, asc, eq, lte, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { AMENITY_LABELS, type AmenityKind } from '../../../shared/amenity';
import {
  EVENT_REVIEWED_FIELDS,
  type Event,
  type EventInput,
  type EventPatch,
  type EventPlaceKind,
  type EventProposal,
  type EventRepeat,
  EventWhole,
  type ReviewedEvent,
} from '../../../shared/event';
import type { Db } from '../../db/client';
import { amenities, events, floors, shops, users } from '../../db/schema';
import { HttpError } from '../../errors';
import { FOREIGN_KEY_VIOLATION, pgError } from '../../lib/db-errors';
import type { Executor, Snapshot, WriteTx } from '../../write-path';
import { reviewDigest, type Submission, waitForReview } from '../review-decisions';

export const eventNotFound = () => new HttpError(404, 'NOT_FOUND', 'Event not found');

/** A place or shop that is gone (or never was): the field the form shows it on. */
export function eventWriteError(error: unknown): HttpError | null {
  const cause = pgError(error);
  if (cause?.code !== FOREIGN_KEY_VIOLATION) return null;
  if (cause.constraint === 'events_shop_id_shops_id_fk') {
    return new HttpError(400, 'VALIDATION', 'Unknown shop', { shopId: 'Unknown shop' });
  }
  if (cause.constraint === 'events_image_images_key_fk') {
    return new HttpError(400, 'VALIDATION', 'Unknown image', { image: 'Unknown image' });
  }
  return new HttpError(400, 'VALIDATION', 'Choose the place', { placeId: 'Choose the place' });
}

const organizer = alias(shops, 'organizer');
const placeFloor = alias(floors, 'place_floor');
const placeAmenity = alias(amenities, 'place_amenity');
const amenityFloor = alias(floors, 'amenity_floor');
const placeShop = alias(shops, 'place_shop');
const shopFloor = alias(floors, 'shop_floor');
const submitter = alias(users, 'submitter');

const columns = {
  id: events.id,
  title: events.title,
  description: events.description,
  shopId: events.shopId,
  shopName: organizer.name,
  shopSlug: organizer.slug,
  placeKind: events.placeKind,
  placeFloorId: events.placeFloorId,
  placeAmenityId: events.placeAmenityId,
  placeShopId: events.placeShopId,
  floorName: placeFloor.name,
  amenityKind: placeAmenity.kind,
  amenityLocation: placeAmenity.location,
  amenityFloorId: amenityFloor.id,
  amenityFloorName: amenityFloor.name,
  placeShopName: placeShop.name,
  shopFloorId: shopFloor.id,
  shopFloorName: shopFloor.name,
  allDay: events.allDay,
  startDate: events.startDate,
  startTime: events.startTime,
  endDate: events.endDate,
  endTime: events.endTime,
  tags: events.tags,
  repeat: events.repeat,
  status: events.status,
  image: events.image,
  createdAt: events.createdAt,
  approved: events.approved,
  reviewState: events.reviewState,
  proposal: events.proposal,
  reviewComment: events.reviewComment,
  submittedBy: submitter.email,
  submittedAt: events.submittedAt,
};

function selectEvents(db: Executor) {
  return db
    .select(columns)
    .from(events)
    .leftJoin(organizer, eq(organizer.id, events.shopId))
    .leftJoin(placeFloor, eq(placeFloor.id, events.placeFloorId))
    .leftJoin(placeAmenity, eq(placeAmenity.id, events.placeAmenityId))
    .leftJoin(amenityFloor, eq(amenityFloor.id, placeAmenity.floorId))
    .leftJoin(placeShop, eq(placeShop.id, events.placeShopId))
    .leftJoin(shopFloor, eq(shopFloor.id, placeShop.floorId))
    .leftJoin(submitter, eq(submitter.id, events.submittedBy));
}

type Row = Awaited<ReturnType<ReturnType<typeof selectEvents>['execute']>>[number];

/** Shoppers see an event once an admin approved it (as offers: docs/decisions/015). */
export const approvedOnly = eq(events.approved, true);

const hhmm = (time: string | null) => (time ? time.slice(0, 5) : null);

/** An amenity as an event's place is named: its kind's label, and its location when it has one. */
export function amenityPlaceName(kind: string, location: string | null): string {
  const label = AMENITY_LABELS[kind as AmenityKind] ?? kind;
  return location ? `${label}, ${location}` : label;
}

function placeOf(row: Row): Event['place'] {
  switch (row.placeKind) {
    case 'floor':
      return {
        kind: 'floor',
        id: row.placeFloorId,
        name: row.floorName ?? '',
        floorId: row.placeFloorId,
        floorName: row.floorName,
      };
    case 'amenity': {
      return {
        kind: 'amenity',
        id: row.placeAmenityId,
        name: amenityPlaceName(row.amenityKind ?? '', row.amenityLocation),
        floorId: row.amenityFloorId,
        floorName: row.amenityFloorName,
      };
    }
    case 'shop':
      return {
        kind: 'shop',
        id: row.placeShopId,
        name: row.placeShopName ?? '',
        floorId: row.shopFloorId,
        floorName: row.shopFloorName,
      };
    default:
      return { kind: 'mall', id: null, name: 'The whole mall', floorId: null, floorName: null };
  }
}

/** Only the public fields, named one by one: nothing under review reaches a shopper's answer. */
function toEvent(row: Row): Event {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    shopId: row.shopId,
    shopName: row.shopName,
    shopSlug: row.shopSlug,
    place: placeOf(row),
    allDay: row.allDay,
    startDate: row.startDate,
    startTime: hhmm(row.startTime),
    endDate: row.endDate,
    endTime: hhmm(row.endTime),
    tags: row.tags,
    repeat: row.repeat,
    status: row.status,
    image: row.image,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The reviewed terms of an event as they are live (the input's names). */
export function liveTerms(
  event: Event,
): Required<Pick<z.output<typeof EventPatch>, (typeof EVENT_REVIEWED_FIELDS)[number]>> {
  return {
    title: event.title,
    description: event.description,
    placeKind: event.place.kind,
    placeId: event.place.id,
    allDay: event.allDay,
    startDate: event.startDate,
    startTime: event.startTime,
    endDate: event.endDate,
    endTime: event.endTime,
    tags: event.tags,
    repeat: event.repeat as EventRepeat | null,
    status: event.status,
  };
}

/** The version of what is under review (reviewDigest: docs/decisions/029). */
export function eventReviewVersion(row: Row, event: Event): string {
  return reviewDigest(row, EVENT_REVIEWED_FIELDS, liveTerms(event), row.proposal as EventProposal | null);
}

function toReviewed(row: Row): ReviewedEvent {
  const event = toEvent(row);
  return {
    ...event,
    approved: row.approved,
    review: row.reviewState
      ? {
          state: row.reviewState,
          proposal: (row.proposal as Record<string, unknown> | null) ?? null,
          comment: row.reviewComment,
          submittedBy: row.submittedBy,
          submittedAt: row.submittedAt?.toISOString() ?? null,
          version: eventReviewVersion(row, event),
        }
      : null,
  };
}

/** An event as the audit log shows it. */
export function eventSnapshot(event: Event): Snapshot {
  return {
    title: event.title,
    description: event.description,
    shop: event.shopName,
    place: event.place.name,
    allDay: event.allDay,
    start: event.startTime ? `${event.startDate} ${event.startTime}` : event.startDate,
    end: event.endTime ? `${event.endDate} ${event.endTime}` : event.endDate,
    tags: event.tags.join(', '),
    repeat: event.repeat,
    status: event.status,
  };
}

/** A proposal as the log shows it. */
export function eventProposalSnapshot(proposal: Record<string, unknown> | null): Snapshot {
  const snapshot: Snapshot = {};
  for (const field of EVENT_REVIEWED_FIELDS) snapshot[`proposed ${field}`] = proposal?.[field] ?? null;
  return snapshot;
}

const NOT_PENDING = 'This event is not waiting for approval (it may have been decided already)';
export const EVENT_CHANGED_SINCE_REVIEW =
  'The shop changed this event after you opened it. Its latest terms are shown now: review them again.';

/** The place's columns for a kind of place and its id. */
function placeColumns(kind: EventPlaceKind, id: string | null | undefined) {
  return {
    placeKind: kind,
    placeFloorId: kind === 'floor' ? (id ?? null) : null,
    placeAmenityId: kind === 'amenity' ? (id ?? null) : null,
    placeShopId: kind === 'shop' ? (id ?? null) : null,
  };
}

/** An input's (or proposal's) terms as the table's columns. */
function termColumns(terms: z.output<typeof EventPatch>) {
  const { placeKind, placeId, tags, shopId: _shopId, ...rest } = terms;
  return {
    ...rest,
    ...(placeKind !== undefined ? placeColumns(placeKind, placeId) : {}),
    ...(tags !== undefined ? { tags: [...new Set(tags)] } : {}),
  };
}

/** The whole event as it would be stored: checked with the same rules as a new one. */
function checkWhole(value: Record<string, unknown>): void {
  const parsed = EventWhole.safeParse(value);
  if (parsed.success) return;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'event');
    fields[field] ??= issue.message;
  }
  const [first] = Object.values(fields);
  throw new HttpError(400, 'VALIDATION', first ?? 'Invalid event', fields);
}

/** The filters of the public lists and feeds: approved events only. */
export interface EventFilters {
  tag?: string;
  floorId?: string;
  shopId?: string;
  /** Only events starting on or before this date (the end of a window). */
  startsBy?: string;
}

function filtersSql(filters: EventFilters): SQL | undefined {
  const where: SQL[] = [approvedOnly];
  if (filters.tag) where.push(sql`${events.tags} @> array[${filters.tag}]::text[]`);
  if (filters.shopId) where.push(eq(events.shopId, filters.shopId));
  if (filters.floorId) {
    where.push(
      or(
        eq(events.placeFloorId, filters.floorId),
        eq(amenityFloor.id, filters.floorId),
        eq(shopFloor.id, filters.floorId),
      ) as SQL,
    );
  }
  if (filters.startsBy) where.push(lte(events.startDate, filters.startsBy));
  return and(...where);
}

const order = [
  asc(events.startDate),
  asc(events.startTime),
  asc(sql`lower(${events.title})`),
  asc(events.id),
];

/** Every event, approved or not, with its review: the mall office's list, and what an import matches. */
export async function listAllEvents(tx: Executor): Promise<ReviewedEvent[]> {
  const rows = await selectEvents(tx).orderBy(...order);
  return rows.map(toReviewed);
}

export function eventRepository(db: Db) {
  async function findReviewed(id: string, tx: Executor = db): Promise<ReviewedEvent | null> {
    const [row] = await selectEvents(tx).where(eq(events.id, id));
    return row ? toReviewed(row) : null;
  }

  async function lockAndRead(tx: WriteTx, id: string): Promise<ReviewedEvent | null> {
    const [row] = await selectEvents(tx).where(eq(events.id, id)).for('update', { of: events });
    return row ? toReviewed(row) : null;
  }

  async function reread(tx: WriteTx, id: string): Promise<ReviewedEvent> {
    const event = await findReviewed(id, tx);
    if (!event) throw eventNotFound();
    return event;
  }

  return {
    findReviewed,

    /** An approved event, as shoppers see it. */
    async find(id: string, tx: Executor = db): Promise<Event | null> {
      const [row] = await selectEvents(tx).where(and(eq(events.id, id), approvedOnly));
      return row ? toEvent(row) : null;
    },

    /** The approved events the filters keep (the caller expands their occurrences). */
    async listApproved(filters: EventFilters, tx: Executor = db): Promise<Event[]> {
      const rows = await selectEvents(tx)
        .where(filtersSql(filters))
        .orderBy(...order);
      return rows.map(toEvent);
    },

    /** The shop an event belongs to (null: the mall's own), or undefined when there is no such event. */
    async shopOf(tx: Executor, id: string): Promise<{ shopId: string | null } | undefined> {
      const [row] = await tx.select({ shopId: events.shopId }).from(events).where(eq(events.id, id));
      return row;
    },

    /** Every event of a shop, approved or not, with its review: what the shop's managers look after. */
    async listForShop(shopId: string, tx: Executor = db): Promise<ReviewedEvent[]> {
      const rows = await selectEvents(tx)
        .where(eq(events.shopId, shopId))
        .orderBy(...order);
      return rows.map(toReviewed);
    },

    /** Every event, approved or not: the mall office's list. */
    listAll(tx: Executor = db): Promise<ReviewedEvent[]> {
      return listAllEvents(tx);
    },

    /** The approvals queue: events waiting for an admin, longest waiting first. */
    async listPending(tx: Executor = db): Promise<ReviewedEvent[]> {
      const rows = await selectEvents(tx)
        .where(eq(events.reviewState, 'pending'))
        .orderBy(asc(events.submittedAt), asc(events.id));
      return rows.map(toReviewed);
    },

    /** A new event: live at once, or (a shop manager's) waiting for an admin's approval. */
    async insert(
      tx: WriteTx,
      values: z.output<typeof EventInput>,
      submission: Submission | null = null,
    ): Promise<ReviewedEvent> {
      const [row] = await tx
        .insert(events)
        .values({
          ...termColumns(values),
          title: values.title,
          shopId: values.shopId ?? null,
          placeKind: values.placeKind,
          allDay: values.allDay,
          startDate: values.startDate,
          endDate: values.endDate,
          startTime: values.allDay ? null : (values.startTime ?? null),
          endTime: values.allDay ? null : (values.endTime ?? null),
          ...(submission ? { approved: false, ...waitForReview(submission) } : {}),
        })
        .returning({ id: events.id });
      if (!row) throw new Error('insert returned no row');
      return reread(tx, row.id);
    },

    /**
     * Checks the edit against the stored event (the whole event as it will be), then applies it. A shop
     * manager's edit (`submission`) waits for an admin: an unapproved event is changed and submitted
     * again; an approved one keeps its live terms and the change is kept as a proposal.
     */
    async update(
      tx: WriteTx,
      id: string,
      patch: z.output<typeof EventPatch>,
      submission: Submission | null = null,
    ): Promise<{ before: ReviewedEvent; after: ReviewedEvent; proposed: boolean } | null> {
      const before = await lockAndRead(tx, id);
      if (!before) return null;
      if (submission && patch.shopId !== undefined && patch.shopId !== before.shopId) {
        throw new HttpError(403, 'FORBIDDEN', 'A shop manager cannot move an event to another shop');
      }
      const live = liveTerms(before);
      if (submission && before.approved) {
        const proposal: Record<string, unknown> = { ...(before.review?.proposal ?? {}) };
        for (const field of EVENT_REVIEWED_FIELDS) {
          if (patch[field] === undefined) continue;
          if (JSON.stringify(patch[field]) === JSON.stringify(live[field])) delete proposal[field];
          else proposal[field] = patch[field];
        }
        checkWhole({ ...live, ...proposal });
        const empty = Object.keys(proposal).length === 0;
        await tx
          .update(events)
          .set(
            empty
              ? { proposal: null, reviewState: null, reviewComment: null }
              : { proposal: proposal as EventProposal, ...waitForReview(submission) },
          )
          .where(eq(events.id, id));
        return { before, after: await reread(tx, id), proposed: true };
      }
      const merged = { ...live, shopId: before.shopId, ...patch };
      checkWhole(merged);
      const changes = {
        ...termColumns({
          ...patch,
          ...(patch.placeKind === undefined && patch.placeId !== undefined
            ? { placeKind: live.placeKind }
            : {}),
        }),
        ...(patch.shopId !== undefined ? { shopId: patch.shopId } : {}),
        ...(submission ? waitForReview(submission) : {}),
      };
      if (Object.keys(changes).length > 0) await tx.update(events).set(changes).where(eq(events.id, id));
      return { before, after: await reread(tx, id), proposed: false };
    },

    /** An admin approves what waits: a new event goes live, or a proposal replaces the live terms. */
    async approve(
      tx: WriteTx,
      id: string,
      version: string,
    ): Promise<{ before: ReviewedEvent; after: ReviewedEvent } | null> {
      const before = await lockAndRead(tx, id);
      if (!before) return null;
      if (before.review?.state !== 'pending') throw new HttpError(409, 'NOT_PENDING', NOT_PENDING);
      if (before.review.version !== version) throw new HttpError(409, 'CHANGED', EVENT_CHANGED_SINCE_REVIEW);
      const terms = (before.review.proposal ?? {}) as z.output<typeof EventPatch>;
      const merged = { ...liveTerms(before), ...terms };
      try {
        checkWhole(merged);
      } catch {
        throw new HttpError(
          409,
          'VALIDATION',
          'This change does not hold together any more: send it back to the shop',
        );
      }
      const placeKind = terms.placeKind ?? (terms.placeId !== undefined ? merged.placeKind : undefined);
      await tx
        .update(events)
        .set({
          ...termColumns({ ...terms, ...(placeKind ? { placeKind, placeId: merged.placeId } : {}) }),
          approved: true,
          proposal: null,
          reviewState: null,
          reviewComment: null,
          submittedBy: null,
          submittedAt: null,
        })
        .where(eq(events.id, id));
      return { before, after: await reread(tx, id) };
    },

    /** An admin sends what waits back to the shop with a comment; the live terms stay as they are. */
    async sendBack(
      tx: WriteTx,
      id: string,
      decision: { comment: string; version: string },
    ): Promise<ReviewedEvent | null> {
      const before = await lockAndRead(tx, id);
      if (!before) return null;
      if (before.review?.state !== 'pending') throw new HttpError(409, 'NOT_PENDING', NOT_PENDING);
      if (before.review.version !== decision.version) {
        throw new HttpError(409, 'CHANGED', EVENT_CHANGED_SINCE_REVIEW);
      }
      await tx
        .update(events)
        .set({ reviewState: 'sent_back', reviewComment: decision.comment })
        .where(eq(events.id, id));
      return reread(tx, id);
    },

    async delete(tx: WriteTx, id: string): Promise<ReviewedEvent | null> {
      const event = await lockAndRead(tx, id);
      if (!event) return null;
      await tx.delete(events).where(eq(events.id, id));
      return event;
    },
  };
}
