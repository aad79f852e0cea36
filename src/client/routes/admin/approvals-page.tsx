import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { BadgeCheck, Check, LoaderCircle, Undo2 } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { ReviewedEvent } from '../../../shared/event';
import { REVIEW_COMMENT_MAX, type ReviewedOffer, SendBackInput } from '../../../shared/offer';
import { AdminScreen } from '../../components/admin-page';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { FormAlert } from '../../components/ui/form-alert';
import { TextAreaField } from '../../components/ui/form-field';
import { PageSection } from '../../components/ui/panel';
import { EmptyState, QueryView, SkeletonCards } from '../../components/ui/query-states';
import { formatWhen } from '../../features/audit';
import { formatWhen as formatEventWhen, pendingEventsQuery, useDecideEvent } from '../../features/events';
import {
  OfferTerms,
  offerReviewsQuery,
  ProposedChange,
  useApproveOffer,
  useSendBackOffer,
} from '../../features/managers';
import { settingsQuery } from '../../features/settings';
import { errorMessage } from '../../lib/api';
import { queryClient } from '../../lib/query-client';

export function prefetch(): void {
  void queryClient.prefetchQuery(offerReviewsQuery);
  void queryClient.prefetchQuery(pendingEventsQuery);
}

/** /admin/approvals: offers and changes shop managers submitted, longest waiting first. */
export function ApprovalsPage() {
  const reviews = useQuery(offerReviewsQuery);
  return (
    <AdminScreen
      className="mx-auto max-w-4xl"
      title="Approvals"
      description="Offers and events, and changes to them, that shop managers submitted, longest waiting first. Shoppers see their terms only once they are approved."
    >
      <ReviewQueue
        query={reviews}
        noun={['offer', 'offers']}
        listLabel="Waiting for approval"
        placeholders={[2, 'h-48 rounded-2xl']}
        empty={
          <EmptyState
            title="No offer is waiting for approval"
            icon={<BadgeCheck aria-hidden="true" className="size-6" />}
          >
            <p>Offers that shop managers submit will appear here.</p>
          </EmptyState>
        }
      >
        {(offer) => <OfferReview key={offer.id} offer={offer} />}
      </ReviewQueue>
      <PendingEvents />
    </AdminScreen>
  );
}

/** Shops' events and changes to them, in the same queue (issue 35): the same decisions as offers'. */
function PendingEvents() {
  const events = useQuery(pendingEventsQuery);
  return (
    <PageSection title="Events">
      <ReviewQueue
        query={events}
        noun={['event', 'events']}
        listLabel="Events to approve"
        placeholders={[1, 'h-40 rounded-2xl']}
        empty={<p className="text-sm text-slate-600">No event is waiting for approval.</p>}
      >
        {(event) => <EventReview key={event.id} event={event} />}
      </ReviewQueue>
    </PageSection>
  );
}

const waiting = (data: { items: unknown[]; total?: number }) => data.total ?? data.items.length;

/** One kind's waiting items: loading and empty states, how many wait, the list. */
function ReviewQueue<T>({
  query,
  noun: [one, many],
  listLabel,
  placeholders: [count, card],
  empty,
  children,
}: {
  query: UseQueryResult<{ items: T[]; total?: number }>;
  noun: [string, string];
  listLabel: string;
  /** While it loads: how many placeholder cards, and their size. */
  placeholders: [number, string];
  empty: ReactNode;
  children: (item: T) => ReactNode;
}) {
  return (
    <QueryView
      query={query}
      loading={<SkeletonCards count={count} className="space-y-4" label={`Loading ${many}`} card={card} />}
      isEmpty={(data) => data.items.length === 0}
      empty={empty}
    >
      {(data) => (
        <>
          <p className="text-sm text-slate-600" aria-live="polite">
            {waiting(data)} {waiting(data) === 1 ? one : many} waiting
          </p>
          <ul aria-label={listLabel} className="space-y-4">
            {data.items.map(children)}
          </ul>
        </>
      )}
    </QueryView>
  );
}

const EVENT_FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  placeKind: 'Where',
  placeId: 'Place',
  allDay: 'All day',
  startDate: 'Start date',
  startTime: 'Start time',
  endDate: 'End date',
  endTime: 'End time',
  tags: 'Tags',
  repeat: 'Repeats',
  status: 'Status',
};
const shown = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? '—'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

function EventReview({ event }: { event: ReviewedEvent }) {
  const decide = useDecideEvent();
  const change = event.approved;
  const version = event.review?.version ?? '';
  const proposal = event.review?.proposal ?? null;
  return (
    <ReviewCard
      heading="h3"
      title={event.title}
      place={event.shopName ?? 'The mall'}
      review={event.review}
      badge={change ? 'Change to a live event' : 'New event'}
      approve={() => decide.mutateAsync({ id: event.id, decision: 'approve', version })}
      approved={`"${event.title}" approved: now live`}
      sendBack={(comment) => decide.mutateAsync({ id: event.id, decision: 'send-back', version, comment })}
    >
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-medium text-slate-900">When{change ? ' (live)' : ''}</dt>
          <dd className="text-slate-700">
            {formatEventWhen(event)}
            {event.repeat ? `, repeats ${event.repeat.freq}` : ''}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-900">Where{change ? ' (live)' : ''}</dt>
          <dd className="text-slate-700">{event.place.name}</dd>
        </div>
        {proposal
          ? Object.entries(proposal).map(([field, value]) => (
              <div key={field}>
                <dt className="font-medium text-slate-900">Proposed {EVENT_FIELD_LABELS[field] ?? field}</dt>
                <dd className="wrap-anywhere text-slate-700">{shown(value)}</dd>
              </div>
            ))
          : null}
      </dl>
    </ReviewCard>
  );
}

function OfferReview({ offer }: { offer: ReviewedOffer }) {
  const approve = useApproveOffer();
  const sendBack = useSendBackOffer();
  const change = offer.approved;
  // the terms on screen: a decision names them, and is refused when the shop changed them since
  const version = offer.review?.version ?? '';
  return (
    <ReviewCard
      heading="h2"
      title={offer.title}
      place={
        <Link
          to={`/admin/shops/${offer.shopId}`}
          className="rounded hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {offer.shopName}
        </Link>
      }
      review={offer.review}
      badge={change ? 'Change to a live offer' : 'New offer'}
      approve={() => approve.mutateAsync({ offerId: offer.id, version })}
      approved={
        change ? `Change to "${offer.title}" approved: now live` : `"${offer.title}" approved: now live`
      }
      sendBack={(comment) => sendBack.mutateAsync({ offerId: offer.id, comment, version })}
    >
      {change ? <ProposedChange offer={offer} /> : <OfferTerms offer={offer} />}
    </ReviewCard>
  );
}

/**
 * A submission waiting for a decision (an offer's or an event's): who sent it and when, what it says
 * (`children`), Approve, or Send back with a comment for the shop's manager. Both decisions name the
 * version on screen, so the server refuses one made on terms changed since (docs/decisions/030).
 */
function ReviewCard({
  heading: Heading,
  title,
  place,
  review,
  badge,
  approve,
  approved,
  sendBack,
  children,
}: {
  heading: 'h2' | 'h3';
  title: string;
  place: ReactNode;
  review: { submittedBy: string | null; submittedAt: string | null; version: string } | null;
  badge: string;
  approve: () => Promise<unknown>;
  /** The toast once approved. */
  approved: string;
  sendBack: (comment: string) => Promise<unknown>;
  children: ReactNode;
}) {
  const titleId = useId();
  const settings = useQuery(settingsQuery);
  const [sendingBack, setSendingBack] = useState(false);
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState<'approve' | 'send-back' | null>(null);
  const busy = pending !== null;

  async function decide(decision: 'approve' | 'send-back', action: () => Promise<unknown>, done: string) {
    setServerError(null);
    setPending(decision);
    try {
      await action();
      toast.success(done);
    } catch (error) {
      setServerError(errorMessage(error));
      toast.error(errorMessage(error));
    } finally {
      setPending(null);
    }
  }

  function handleSendBack(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = SendBackInput.safeParse({ comment, version: review?.version ?? '' });
    if (!parsed.success) {
      setCommentError(parsed.error.issues[0]?.message);
      return;
    }
    setCommentError(undefined);
    void decide('send-back', () => sendBack(parsed.data.comment), `"${title}" sent back to the shop`);
  }

  const spinner = <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />;
  return (
    <li
      aria-labelledby={titleId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-indigo-700">{place}</p>
          <Heading id={titleId} className="text-lg font-semibold wrap-anywhere text-slate-900">
            {title}
          </Heading>
          <p className="mt-0.5 text-sm text-slate-600">
            Submitted by{' '}
            <span className="wrap-anywhere text-slate-800">{review?.submittedBy ?? 'unknown'}</span>
            {review?.submittedAt ? (
              <>
                {' '}
                on{' '}
                <time dateTime={review.submittedAt}>
                  {formatWhen(review.submittedAt, settings.data?.timeZone)}
                </time>
              </>
            ) : null}
          </p>
        </div>
        <Badge tone="amber">{badge}</Badge>
      </div>

      <div className="mt-4">{children}</div>

      <div className="mt-5 space-y-4 border-t border-slate-100 pt-4">
        <FormAlert message={serverError} />
        {sendingBack ? (
          <form noValidate onSubmit={handleSendBack} className="space-y-3">
            <TextAreaField
              label="What should change? (the shop's manager sees this)"
              value={comment}
              onChange={(event) => setComment(event.target.value)}
              maxLength={REVIEW_COMMENT_MAX}
              required
              error={commentError}
              disabled={busy}
            />
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Button variant="secondary" onClick={() => setSendingBack(false)} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" disabled={busy}>
                {pending === 'send-back' ? spinner : null}
                Send back<span className="sr-only"> {title}</span>
              </Button>
            </div>
          </form>
        ) : (
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setSendingBack(true)} disabled={busy}>
              <Undo2 aria-hidden="true" className="size-4" />
              Send back…<span className="sr-only"> {title}</span>
            </Button>
            <Button onClick={() => void decide('approve', approve, approved)} disabled={busy}>
              {pending === 'approve' ? spinner : <Check aria-hidden="true" className="size-4" />}
              Approve<span className="sr-only"> {title}</span>
            </Button>
          </div>
        )}
      </div>
    </li>
  );
}
