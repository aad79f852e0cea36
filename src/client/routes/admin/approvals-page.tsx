import { useQuery } from '@tanstack/react-query';
import { BadgeCheck, Check, LoaderCircle, Undo2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { REVIEW_COMMENT_MAX, type ReviewedOffer, SendBackInput } from '../../../shared/offer';
import { AdminScreen } from '../../components/admin-page';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { FormAlert } from '../../components/ui/form-alert';
import { TextAreaField } from '../../components/ui/form-field';
import { EmptyState, QueryView, SkeletonCards } from '../../components/ui/query-states';
import { formatWhen } from '../../features/audit';
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
}

/** /admin/approvals: offers and changes shop managers submitted, longest waiting first. */
export function ApprovalsPage() {
  const reviews = useQuery(offerReviewsQuery);
  return (
    <AdminScreen
      className="mx-auto max-w-4xl"
      title="Approvals"
      description="Offers and changes to offers that shop managers submitted, longest waiting first. Shoppers see an offer's terms only once they are approved."
    >
      <QueryView
        query={reviews}
        loading={
          <SkeletonCards count={2} className="space-y-4" label="Loading approvals" card="h-48 rounded-2xl" />
        }
        isEmpty={(data) => data.items.length === 0}
        empty={
          <EmptyState
            title="Nothing is waiting for approval"
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
    </AdminScreen>
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
