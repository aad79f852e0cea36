import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EVENT_OVERVIEW_PAGE_SIZE,
  EVENT_WINDOW_DEFAULT_DAYS,
  EVENT_WINDOW_MAX_DAYS,
  type Event,
  EventApproveInput,
  EventDetail,
  EventFeedQuery,
  EventInput,
  type EventListItem,
  EventListQuery,
  EventOverview,
  EventOverviewQuery,
  EventPage,
  EventPatch,
  EventSendBackInput,
  ReviewedEvent,
  ReviewedEventList,
} from '../../../shared/event';
import { addDays } from '../../../shared/hours-status';
import { authorizeRecord } from '../../auth/record-guard';
import type { Db } from '../../db/client';
import { errorAnswers, HttpError, NoContent } from '../../errors';
import { mallToday } from '../../lib/mall-time';
import { routeWriter } from '../../write-path';
import { mallProfileRepository } from '../mall-profile/repository';
import { registerReviewDecisions, submissionOf } from '../review-decisions';
import { calendar, ICAL_TYPE, timingOf } from './ical';
import { overviewCards, weekendAfter } from './overview';
import { occurrences, upcoming } from './recurrence';
import {
  eventNotFound,
  eventProposalSnapshot,
  eventRepository,
  eventSnapshot,
  eventWriteError,
} from './repository';

const IdParams = z.strictObject({ id: z.uuid('Event not found') });
const ShopParams = z.strictObject({ id: z.uuid('Shop not found') });

const CalendarText = {
  description: 'An iCalendar (RFC 5545) file',
  content: { 'text/calendar': { schema: z.string() } },
};

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** The JSON feed (JSON Feed 1.1, with each item's times in `_event`). */
const JsonFeed = z.object({
  version: z.string(),
  title: z.string(),
  home_page_url: z.string().optional(),
  items: z.array(
    z.object({
      id: z.string(),
      url: z.string().optional(),
      title: z.string(),
      content_text: z.string(),
      tags: z.array(z.string()),
      date_published: z.string(),
      _event: z.object({
        status: z.string(),
        allDay: z.boolean(),
        place: z.string(),
        organizer: z.string(),
        timeZone: z.string(),
        upcoming: z.array(z.object({ start: z.string(), end: z.string() })),
      }),
    }),
  ),
});

/**
 * The events (issue 35, docs/decisions/036): the public lists, pages' data and feeds (approved events
 * only; cached by catalogue version, and by the mall's date where "today" decides), and the writes,
 * whose shop managers' part waits for an admin in the approvals queue.
 */
export const eventRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date; timeZone: string }> = async (
  app,
  { db, now, timeZone },
) => {
  const events = eventRepository(db);
  const profiles = mallProfileRepository(db);
  const write = routeWriter(db, now, eventWriteError);
  const today = () => mallToday(timeZone, now());
  const byDate = { varies: ['catalog', 'mallDate'] } as const;

  /** Every occurrence of `found` from `from` to `to`, in time order (then by title). */
  const occurrencesOf = (found: readonly Event[], from: string, to: string): EventListItem[] =>
    found
      .flatMap((event) =>
        occurrences(timingOf(event), from, to, timeZone).map((occurrence) => ({ event, occurrence })),
      )
      .sort(
        (a, b) =>
          a.occurrence.start.localeCompare(b.occurrence.start) || a.event.title.localeCompare(b.event.title),
      );

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'event' }, cache: byDate },
      schema: { querystring: EventListQuery, response: { 200: EventPage } },
    },
    async (request) => {
      const { page, pageSize, tag, floorId, shopId } = request.query;
      const from = request.query.from ?? today();
      const to = request.query.to ?? addDays(from, EVENT_WINDOW_DEFAULT_DAYS);
      if (to < from)
        throw new HttpError(400, 'VALIDATION', 'To must be on or after from', {
          to: 'To must be on or after from',
        });
      if (daysBetween(from, to) > EVENT_WINDOW_MAX_DAYS) {
        const message = `At most ${EVENT_WINDOW_MAX_DAYS} days at a time`;
        throw new HttpError(400, 'VALIDATION', message, { to: message });
      }
      const found = await events.listApproved({ tag, floorId, shopId, startsBy: to });
      const items = occurrencesOf(found, from, to);
      return {
        items: items.slice((page - 1) * pageSize, page * pageSize),
        total: items.length,
        page,
        pageSize,
        from,
        to,
      };
    },
  );

  // The events page's cards (docs/decisions/040): the next 60 days grouped into today, this weekend
  // and later, a page at a time, each event once per group, without the description or rule (the
  // response schema leaves them out), so the page carries what it shows.
  app.get(
    '/overview',
    {
      config: { permission: { action: 'read', resource: 'event' }, cache: byDate },
      schema: { querystring: EventOverviewQuery, response: { 200: EventOverview } },
    },
    async (request) => {
      const { page, tag, floorId, shopId } = request.query;
      const from = today();
      const to = addDays(from, EVENT_WINDOW_DEFAULT_DAYS);
      const inWindow = occurrencesOf(await events.listApproved({ floorId, shopId, startsBy: to }), from, to);
      const tags = [...new Set(inWindow.flatMap((item) => item.event.tags))].sort();
      const cards = overviewCards(
        tag ? inWindow.filter((item) => item.event.tags.includes(tag)) : inWindow,
        from,
      );
      const pageSize = EVENT_OVERVIEW_PAGE_SIZE;
      return {
        items: cards
          .slice((page - 1) * pageSize, page * pageSize)
          .map(({ group, item, moreDates }) => ({ group, ...item, moreDates })),
        total: cards.length,
        page,
        pageSize,
        from,
        to,
        weekend: weekendAfter(from),
        groupTotals: {
          today: cards.filter((card) => card.group === 'today').length,
          weekend: cards.filter((card) => card.group === 'weekend').length,
          upcoming: cards.filter((card) => card.group === 'upcoming').length,
        },
        tags,
      };
    },
  );

  app.get(
    '/calendar.ics',
    {
      config: { permission: { action: 'read', resource: 'event' }, cache: { varies: ['catalog'] } },
      schema: { querystring: EventFeedQuery, response: { 200: CalendarText } },
    },
    async (request, reply) => {
      const { tag, shopId } = request.query;
      const [found, profile] = await Promise.all([events.listApproved({ tag, shopId }), profiles.get()]);
      const shopName = shopId ? (found[0]?.shopName ?? null) : null;
      const name = [tag ? `${tag} events` : 'Events', shopName ? `by ${shopName}` : '', `at ${profile.name}`]
        .filter((part) => part)
        .join(' ');
      return sendCalendar(reply, calendar(found, calendarOptions(profile, name)), 'events.ics', false);
    },
  );

  app.get(
    '/feed.json',
    {
      config: { permission: { action: 'read', resource: 'event' }, cache: byDate },
      schema: { querystring: EventFeedQuery, response: { 200: JsonFeed } },
    },
    async (request, reply) => {
      const { tag, shopId } = request.query;
      const [found, profile] = await Promise.all([events.listApproved({ tag, shopId }), profiles.get()]);
      const origin = profile.publicUrl.replace(/\/+$/, '');
      const items = found
        .map((event) => ({ event, next: upcoming(timingOf(event), today(), timeZone, 5) }))
        .filter(({ next }) => next.length > 0)
        .map(({ event, next }) => ({
          id: event.id,
          ...(origin ? { url: `${origin}/events/${event.id}` } : {}),
          title: event.title,
          content_text: event.description,
          tags: event.tags,
          date_published: event.createdAt,
          _event: {
            status: event.status,
            allDay: event.allDay,
            place: event.place.name,
            organizer: event.shopName ?? profile.name,
            timeZone,
            upcoming: next.map(({ start, end }) => ({ start, end })),
          },
        }));
      reply.type('application/feed+json; charset=utf-8');
      return {
        version: 'https://jsonfeed.org/version/1.1',
        title: `Events at ${profile.name}`,
        ...(origin ? { home_page_url: `${origin}/events` } : {}),
        items,
      };
    },
  );

  app.get(
    '/:id',
    {
      config: { permission: { action: 'read', resource: 'event' }, cache: byDate },
      schema: { params: IdParams, response: { 200: EventDetail, ...errorAnswers(404) } },
    },
    async (request) => {
      const event = await events.find(request.params.id);
      if (!event) throw eventNotFound();
      return { ...event, upcoming: upcoming(timingOf(event), today(), timeZone) };
    },
  );

  app.get(
    '/:id/calendar.ics',
    {
      config: { permission: { action: 'read', resource: 'event' }, cache: { varies: ['catalog'] } },
      schema: { params: IdParams, response: { 200: CalendarText, ...errorAnswers(404) } },
    },
    async (request, reply) => {
      const [event, profile] = await Promise.all([events.find(request.params.id), profiles.get()]);
      if (!event) throw eventNotFound();
      return sendCalendar(reply, calendar([event], calendarOptions(profile, event.title)), 'event.ics', true);
    },
  );

  function calendarOptions(profile: Awaited<ReturnType<typeof profiles.get>>, name: string) {
    return { timeZone, profile, name, origin: profile.publicUrl.replace(/\/+$/, ''), today: today() };
  }

  app.post(
    '/',
    {
      config: { permission: { action: 'create', resource: 'event' } },
      schema: { body: EventInput, response: { 201: ReviewedEvent } },
    },
    async (request, reply) => {
      await authorizeRecord(request, 'create', 'event', async () => ({
        shopId: request.body.shopId ?? undefined,
      }));
      const created = await write(request, async ({ tx, record, at }) => {
        const submission = submissionOf(request, at);
        const event = await events.insert(tx, request.body, submission);
        record({
          entityType: 'event',
          entityId: event.id,
          entityName: event.title,
          shopId: event.shopId,
          action: 'create',
          after: eventSnapshot(event),
          detail: submission ? { review: 'pending' } : null,
        });
        return event;
      });
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/:id',
    {
      config: { permission: { action: 'update', resource: 'event' } },
      schema: {
        params: IdParams,
        body: EventPatch,
        response: { 200: ReviewedEvent, ...errorAnswers(404, 409) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return write(request, async ({ tx, record, at }) => {
        await authorizeRecord(request, 'update', 'event', async () => {
          const found = await events.shopOf(tx, id);
          // A mall event (no shop) is no manager's: refused as another shop's.
          return found ? { shopId: found.shopId ?? undefined } : null;
        });
        const submission = submissionOf(request, at);
        const changed = await events.update(tx, id, request.body, submission);
        if (!changed) throw eventNotFound();
        const { before, after } = changed;
        if (changed.proposed) {
          record({
            entityType: 'event',
            entityId: id,
            entityName: after.title,
            shopId: after.shopId,
            action: 'submit',
            before: eventProposalSnapshot(before.review?.proposal ?? null),
            after: eventProposalSnapshot(after.review?.proposal ?? null),
          });
        } else {
          record({
            entityType: 'event',
            entityId: id,
            entityName: after.title,
            shopId: after.shopId,
            action: submission ? 'submit' : 'update',
            before: eventSnapshot(before),
            after: eventSnapshot(after),
          });
        }
        return after;
      });
    },
  );

  app.delete(
    '/:id',
    {
      config: { permission: { action: 'delete', resource: 'event' } },
      schema: { params: IdParams, response: { 204: NoContent, ...errorAnswers(404) } },
    },
    async (request, reply) => {
      await write(request, async ({ tx, record }) => {
        const deleted = await events.delete(tx, request.params.id);
        if (!deleted) throw eventNotFound();
        record({
          entityType: 'event',
          entityId: deleted.id,
          entityName: deleted.title,
          shopId: deleted.shopId,
          action: 'delete',
          before: eventSnapshot(deleted),
        });
      });
      return reply.status(204).send();
    },
  );
};

/** The calendar as a file: inline for a feed a calendar subscribes to, an attachment for one event. */
function sendCalendar(reply: FastifyReply, text: string, fileName: string, download: boolean) {
  reply.type(ICAL_TYPE);
  reply.header('content-disposition', `${download ? 'attachment' : 'inline'}; filename="${fileName}"`);
  return text;
}

/**
 * The approvals queue's events (same queue, same permission as the offers': docs/decisions/015) and
 * the mall office's list of every event. Never cached.
 */
export const eventReviewRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date }> = async (
  app,
  { db, now },
) => {
  const events = eventRepository(db);
  const write = routeWriter(db, now, eventWriteError);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'offer-review' } },
      schema: { response: { 200: ReviewedEventList } },
    },
    async () => {
      const items = await events.listPending();
      return { items, total: items.length };
    },
  );

  app.get(
    '/all',
    {
      config: { permission: { action: 'read', resource: 'offer-review' } },
      schema: { response: { 200: ReviewedEventList } },
    },
    async () => {
      const items = await events.listAll();
      return { items, total: items.length };
    },
  );

  registerReviewDecisions<ReviewedEvent>(app, {
    entityType: 'event',
    params: IdParams,
    approveBody: EventApproveInput,
    sendBackBody: EventSendBackInput,
    answer: ReviewedEvent,
    write,
    approve: (tx, id, version) => events.approve(tx, id, version),
    sendBack: (tx, id, decision) => events.sendBack(tx, id, decision),
    notFound: eventNotFound,
    snapshot: eventSnapshot,
  });
};

/** A shop's events with their reviews, for its managers ("My shops"). */
export const managedEventRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const events = eventRepository(db);
  app.get(
    '/manage/shops/:id/events',
    {
      config: { permission: { action: 'read', resource: 'managed-shop' } },
      schema: {
        params: ShopParams,
        response: { 200: z.object({ items: z.array(ReviewedEvent) }), ...errorAnswers(403, 404) },
      },
    },
    async (request) => {
      const shopId = request.params.id;
      await authorizeRecord(request, 'read', 'managed-shop', async () => ({ shopId }));
      return { items: await events.listForShop(shopId) };
    },
  );
};
