import './zod-config';
import { z } from 'zod';
import { Id, optionalText, PageQuery, pageSchema, requiredLine, requiredText, SearchText } from './text';

export const OFFER_LIMITS = { title: 120, description: 2000 } as const;
const DISCOUNT_MESSAGE = 'Discount must be between 1 and 100';
export const END_BEFORE_START = 'End date must be after start date';

export const OFFER_STATUSES = ['active', 'upcoming', 'expired'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/**
 * Where an offer stands on the mall's date `today` (YYYY-MM-DD): start and end dates both count, in the
 * mall's time zone. The server decides it (offers module); the client only shows the label it was sent.
 */
export function offerStatus(offer: { startDate: string; endDate: string }, today: string): OfferStatus {
  if (today < offer.startDate) return 'upcoming';
  if (today > offer.endDate) return 'expired';
  return 'active';
}

/** A real calendar date as YYYY-MM-DD (what a date input gives). */
export function calendarDate(required: string) {
  return z
    .string({ error: required })
    .min(1, required)
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD')
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      // Years 1900–9999: real calendar dates that every database and browser date input can hold.
      const year = Number(value.slice(0, 4));
      return year >= 1900 && !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
    }, 'Enter a real date');
}

const offerFields = {
  title: requiredLine(
    OFFER_LIMITS.title,
    'Title is required',
    `Title must be at most ${OFFER_LIMITS.title} characters`,
    'Title must be one line',
  ),
  description: optionalText(
    OFFER_LIMITS.description,
    `Description must be at most ${OFFER_LIMITS.description} characters`,
  ),
  discount: z
    .number({ error: DISCOUNT_MESSAGE })
    .int(DISCOUNT_MESSAGE)
    .min(1, DISCOUNT_MESSAGE)
    .max(100, DISCOUNT_MESSAGE),
  startDate: calendarDate('Start date is required'),
  endDate: calendarDate('End date is required'),
  shopId: Id('Shop is required'),
};

/** End on the start date is fine (a one-day offer); before it is not. */
export function endNotBeforeStart(value: { startDate?: string; endDate?: string }): boolean {
  return !value.startDate || !value.endDate || value.endDate >= value.startDate;
}

export const OfferInput = z
  .strictObject(offerFields)
  .refine(endNotBeforeStart, { message: END_BEFORE_START, path: ['endDate'] });
export type OfferInput = z.input<typeof OfferInput>;
/** The server checks the dates again against the stored ones when only one of them changes. */
export const OfferPatch = z
  .strictObject(offerFields)
  .partial()
  .refine(endNotBeforeStart, { message: END_BEFORE_START, path: ['endDate'] });
export type OfferPatch = z.input<typeof OfferPatch>;

export const OfferListQuery = z.strictObject({
  ...PageQuery.shape,
  q: SearchText,
  shopId: z.uuid('Unknown shop').optional(),
  active: z.enum(['true', 'false']).optional(),
});
export type OfferListQuery = z.input<typeof OfferListQuery>;

export const Offer = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  discount: z.number().int(),
  startDate: z.string(),
  endDate: z.string(),
  shopId: z.string(),
  shopName: z.string(),
  /** Decided by the server at the moment of the request, in the mall's time zone. */
  active: z.boolean(),
  /** The same decision as a label: running today, starting later, or ended (offerStatus). */
  status: z.enum(OFFER_STATUSES),
  createdAt: z.string(),
});
export type Offer = z.infer<typeof Offer>;
export const OfferPage = pageSchema(Offer);

/** The terms of an offer an admin approves before shoppers see them (docs/decisions/015). */
export const REVIEWED_FIELDS = ['title', 'description', 'discount', 'startDate', 'endDate'] as const;
export type OfferProposal = Partial<Pick<Offer, (typeof REVIEWED_FIELDS)[number]>>;

export const REVIEW_STATES = ['pending', 'sent_back'] as const;
export const REVIEW_COMMENT_MAX = 1000;

/**
 * An offer as its shop's managers and the admins see it: the live terms (what shoppers see, once
 * approved) and what awaits an admin's decision.
 */
export const ReviewedOffer = Offer.extend({
  /** Shoppers see the offer (its live terms): an admin approved it. */
  approved: z.boolean(),
  review: z
    .object({
      state: z.enum(REVIEW_STATES),
      /** A change to an approved offer; null when the whole (unapproved) offer is under review. */
      proposal: z
        .object({
          title: z.string(),
          description: z.string(),
          discount: z.number().int(),
          startDate: z.string(),
          endDate: z.string(),
        })
        .partial()
        .nullable(),
      comment: z.string().nullable(),
      submittedBy: z.string().nullable(),
      submittedAt: z.string().nullable(),
      /**
       * What is under review, as a short digest of the terms and the proposal: an admin's decision
       * names the version they saw, and is refused once the offer changed since (a manager's edit
       * between the look and the click).
       */
      version: z.string(),
    })
    .nullable(),
});
export type ReviewedOffer = z.infer<typeof ReviewedOffer>;
export const ReviewedOfferPage = pageSchema(ReviewedOffer);

/** The version of the offer under review that the admin saw (`review.version`). */
const reviewedVersion = z.string('Reload the offer and review it again').min(1).max(100);

/** An admin's approval names the version they reviewed. */
export const ApproveInput = z.strictObject({ version: reviewedVersion });
export type ApproveInput = z.input<typeof ApproveInput>;

export const SendBackInput = z.strictObject({
  version: reviewedVersion,
  comment: requiredText(
    REVIEW_COMMENT_MAX,
    'Say what should change',
    `Comment must be at most ${REVIEW_COMMENT_MAX} characters`,
  ),
});
export type SendBackInput = z.input<typeof SendBackInput>;
