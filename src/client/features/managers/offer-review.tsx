// How an offer stands with the mall office, in words a shop manager and an admin both read.
import type { ReviewedOffer } from '../../../shared/offer';
import { REVIEWED_FIELDS } from '../../../shared/offer';
import { Badge } from '../../components/ui/badge';
import { ChangeTable } from '../../components/ui/change-table';
import { formatDate } from '../../lib/format-date';

type Field = (typeof REVIEWED_FIELDS)[number];
const FIELD_LABELS: Record<Field, string> = {
  title: 'Title',
  description: 'Description',
  discount: 'Discount',
  startDate: 'Start date',
  endDate: 'End date',
};

function termText(field: Field, value: string | number | undefined): string {
  if (value === undefined || value === '') return '(none)';
  if (field === 'discount') return `${value}%`;
  if (field === 'startDate' || field === 'endDate') return formatDate(String(value));
  return String(value);
}

export type ReviewStanding = 'live' | 'pending' | 'sent_back' | 'live_pending' | 'live_sent_back';

/** Live / Waiting for approval / Sent back / Live with a change waiting or sent back. */
export function reviewStanding(offer: Pick<ReviewedOffer, 'approved' | 'review'>): ReviewStanding {
  const state = offer.review?.state;
  if (!offer.approved) return state === 'sent_back' ? 'sent_back' : 'pending';
  if (state === 'pending') return 'live_pending';
  if (state === 'sent_back') return 'live_sent_back';
  return 'live';
}

/** The offer's standing as a badge, the admin's comment when sent back, and any proposed change. */
export function OfferReviewStatus({ offer }: { offer: ReviewedOffer }) {
  const standing = reviewStanding(offer);
  const comment = offer.review?.comment;
  return (
    <div className="space-y-2">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        {standing === 'live' ? <Badge tone="green">Live</Badge> : null}
        {standing === 'pending' ? <Badge tone="amber">Waiting for approval</Badge> : null}
        {standing === 'sent_back' ? <Badge tone="rose">Sent back</Badge> : null}
        {standing === 'live_pending' ? (
          <>
            <Badge tone="green">Live</Badge>
            <Badge tone="amber">Change waiting for approval</Badge>
          </>
        ) : null}
        {standing === 'live_sent_back' ? (
          <>
            <Badge tone="green">Live</Badge>
            <Badge tone="rose">Change sent back</Badge>
          </>
        ) : null}
      </p>
      {(standing === 'sent_back' || standing === 'live_sent_back') && comment ? (
        <p className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm wrap-anywhere text-rose-800">
          <span className="font-medium">The mall office says:</span> “{comment}”
        </p>
      ) : null}
      {offer.review?.proposal ? <ProposedChange offer={offer} /> : null}
    </div>
  );
}

/** A change to a live offer, field by field: the live value, then the proposed one. */
export function ProposedChange({ offer }: { offer: ReviewedOffer }) {
  const proposal = offer.review?.proposal ?? {};
  const fields = REVIEWED_FIELDS.filter((field) => proposal[field] !== undefined);
  if (fields.length === 0) return null;
  return (
    <ChangeTable
      caption="Proposed change: live value and proposed value"
      headings={['Live', 'Proposed']}
      rows={fields.map((field) => ({
        key: field,
        label: FIELD_LABELS[field],
        before: termText(field, offer[field]),
        after: termText(field, proposal[field]),
      }))}
      emphasiseAfter
      className="min-w-64"
    />
  );
}

/** An offer's terms as a short description list (a whole new offer waiting for approval). */
export function OfferTerms({ offer }: { offer: ReviewedOffer }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      <dt className="font-medium text-slate-700">Discount</dt>
      <dd className="text-slate-900">{offer.discount}%</dd>
      <dt className="font-medium text-slate-700">Dates</dt>
      <dd className="text-slate-900">
        {formatDate(offer.startDate)} – {formatDate(offer.endDate)}
      </dd>
      {offer.description ? (
        <>
          <dt className="font-medium text-slate-700">Description</dt>
          <dd className="wrap-anywhere text-slate-900">{offer.description}</dd>
        </>
      ) : null}
    </dl>
  );
}
