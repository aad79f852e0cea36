import { useQuery } from '@tanstack/react-query';
import { BadgeCheck, Check, LoaderCircle, Undo2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { ReviewedEvent } from '../../../shared/event';
import { REVIEW_COMMENT_MAX, type ReviewedOffer, SendBackInput } from '../../../shared/offer';
import { AdminScreen } from '../../components/admin-page';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { FormAlert } from '../../components/ui/form-alert';
import { TextAreaField } from '../../components/ui/form-field';
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
      <QueryView
        query={reviews}
        loading={
          <SkeletonCards count={2} className="space-y-4" label="Loading approvals" card="h-48 rounded-2xl" />
        }
        isEmpty={(data) => data.items.length === 0}
        empty={
          <EmptyState
            title="No offer is waiting for approval"
            icon={<BadgeCheck aria-hidden="true" className="size-6" />}
          >
            <p>Offers that shop managers submit will appear here.</p>
          </EmptyState>
        }
      >
        {(data) => (
          <>
            <p className="text-sm text-slate-600" aria-live="polite">
              {data.total} {data.total === 1 ? 'offer' : 'offers'} waiting
            </p>
            <ul aria-label="Waiting for approval" className="space-y-4">
              {data.items.map((offer) => (
                <ReviewItem key={offer.id} offer={offer} />
              ))}
            </ul>
          </>
        )}
      </QueryView>
      <PendingEvents />
    </AdminScreen>
  );
}

/** Shops' events and changes to them, in the same queue (issue 35): the same decisions as offers'. */
function PendingEvents() {
  const events = useQuery(pendingEventsQuery);
  return (
    <section aria-labelledby="pending-events" className="space-y-4">
      <h2 id="pending-events" className="text-xl font-bold tracking-tight text-slate-900">
        Events
      </h2>
      <QueryView
        query={events}
        loading={
          <SkeletonCards count={1} className="space-y-4" label="Loading events" card="h-40 rounded-2xl" />
        }
        isEmpty={(data) => data.items.length === 0}
        empty={<p className="text-sm text-slate-600">No event is waiting for approval.</p>}
      >
        {(data) => (
          <>
            <p className="text-sm text-slate-600" aria-live="polite">
              {data.items.length} {data.items.length === 1 ? 'event' : 'events'} waiting
            </p>
            <ul aria-label="Events to approve" className="space-y-4">
              {data.items.map((event) => (
                <EventReviewItem key={event.id} event={event} />
              ))}
            </ul>
          </>
        )}
      </QueryView>
    </section>
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

function EventReviewItem({ event }: { event: ReviewedEvent }) {
  const titleId = useId();
  const decide = useDecideEvent();
  const [sendingBack, setSendingBack] = useState(false);
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);
  const version = event.review?.version ?? '';
  const change = event.approved;
  const proposal = event.review?.proposal ?? null;

  async function run(decision: 'approve' | 'send-back') {
    setServerError(null);
    try {
      await decide.mutateAsync({ id: event.id, decision, version, comment });
      toast.success(
        decision === 'approve'
          ? `"${event.title}" approved: now live`
          : `"${event.title}" sent back to the shop`,
      );
    } catch (error) {
      setServerError(errorMessage(error));
      toast.error(errorMessage(error));
    }
  }

  function handleSendBack(formEvent: React.FormEvent<HTMLFormElement>) {
    formEvent.preventDefault();
    const parsed = SendBackInput.safeParse({ comment, version });
    if (!parsed.success) {
      setCommentError(parsed.error.issues[0]?.message);
      return;
    }
    setCommentError(undefined);
    void run('send-back');
  }

  return (
    <li
      aria-labelledby={titleId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-indigo-700">{event.shopName ?? 'The mall'}</p>
          <h3 id={titleId} className="text-lg font-semibold wrap-anywhere text-slate-900">
            {event.title}
          </h3>
          <p className="mt-0.5 text-sm text-slate-600">
            Submitted by{' '}
            <span className="wrap-anywhere text-slate-800">{event.review?.submittedBy ?? 'unknown'}</span>
          </p>
        </div>
        <Badge tone="amber">{change ? 'Change to a live event' : 'New event'}</Badge>
      </div>
      <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-2">
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
      <div className="mt-5 space-y-4 border-t border-slate-100 pt-4">
        <FormAlert message={serverError} />
        {sendingBack ? (
          <form noValidate onSubmit={handleSendBack} className="space-y-3">
            <TextAreaField
              label="What should change? (the shop's manager sees this)"
              value={comment}
              onChange={(change) => setComment(change.target.value)}
              maxLength={REVIEW_COMMENT_MAX}
              required
              error={commentError}
              disabled={decide.isPending}
            />
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Button variant="secondary" onClick={() => setSendingBack(false)} disabled={decide.isPending}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" disabled={decide.isPending}>
                Send back<span className="sr-only"> {event.title}</span>
              </Button>
            </div>
          </form>
        ) : (
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setSendingBack(true)} disabled={decide.isPending}>
              <Undo2 aria-hidden="true" className="size-4" />
              Send back…<span className="sr-only"> {event.title}</span>
            </Button>
            <Button onClick={() => void run('approve')} disabled={decide.isPending}>
              {decide.isPending ? (
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              ) : (
                <Check aria-hidden="true" className="size-4" />
              )}
              Approve<span className="sr-only"> {event.title}</span>
            </Button>
          </div>
        )}
      </div>
    </li>
  );
}

function ReviewItem({ offer }: { offer: ReviewedOffer }) {
  const titleId = useId();
  const approve = useApproveOffer();
  const sendBack = useSendBackOffer();
  const settings = useQuery(settingsQuery);
  const [sendingBack, setSendingBack] = useState(false);
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);
  const busy = approve.isPending || sendBack.isPending;
  const change = offer.approved;
  // the terms on screen: a decision names them, and is refused when the shop changed them since
  const version = offer.review?.version ?? '';

  async function handleApprove() {
    setServerError(null);
    try {
      await approve.mutateAsync({ offerId: offer.id, version });
      toast.success(
        change ? `Change to "${offer.title}" approved: now live` : `"${offer.title}" approved: now live`,
      );
    } catch (error) {
      setServerError(errorMessage(error));
      toast.error(errorMessage(error));
    }
  }

  async function handleSendBack(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = SendBackInput.safeParse({ comment, version });
    if (!parsed.success) {
      setCommentError(parsed.error.issues[0]?.message);
      return;
    }
    setCommentError(undefined);
    setServerError(null);
    try {
      await sendBack.mutateAsync({ offerId: offer.id, comment: parsed.data.comment, version });
      toast.success(`"${offer.title}" sent back to the shop`);
    } catch (error) {
      setServerError(errorMessage(error));
      toast.error(errorMessage(error));
    }
  }

  return (
    <li
      aria-labelledby={titleId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-indigo-700">
            <Link
              to={`/admin/shops/${offer.shopId}`}
              className="rounded hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              {offer.shopName}
            </Link>
          </p>
          <h2 id={titleId} className="text-lg font-semibold wrap-anywhere text-slate-900">
            {offer.title}
          </h2>
          <p className="mt-0.5 text-sm text-slate-600">
            Submitted by{' '}
            <span className="wrap-anywhere text-slate-800">{offer.review?.submittedBy ?? 'unknown'}</span>
            {offer.review?.submittedAt ? (
              <>
                {' '}
                on{' '}
                <time dateTime={offer.review.submittedAt}>
                  {formatWhen(offer.review.submittedAt, settings.data?.timeZone)}
                </time>
              </>
            ) : null}
          </p>
        </div>
        <Badge tone="amber">{change ? 'Change to a live offer' : 'New offer'}</Badge>
      </div>

      <div className="mt-4">{change ? <ProposedChange offer={offer} /> : <OfferTerms offer={offer} />}</div>

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
                {sendBack.isPending ? (
                  <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
                ) : null}
                Send back<span className="sr-only"> {offer.title}</span>
              </Button>
            </div>
          </form>
        ) : (
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setSendingBack(true)} disabled={busy}>
              <Undo2 aria-hidden="true" className="size-4" />
              Send back…<span className="sr-only"> {offer.title}</span>
            </Button>
            <Button onClick={handleApprove} disabled={busy}>
              {approve.isPending ? (
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              ) : (
                <Check aria-hidden="true" className="size-4" />
              )}
              Approve<span className="sr-only"> {offer.title}</span>
            </Button>
          </div>
        )}
      </div>
    </li>
  );
}
