// The approvals queue's two decisions, one mechanism for every kind it holds (offers: docs/decisions/015,
// events: 036): an admin approves what a shop's manager submitted — it goes live — or sends it back with
// a comment the shop sees. Each decision names the version the admin saw and is refused (409) when the
// submission changed since (decision 030): the repository's approve/sendBack check it in the write's
// transaction. Audited the same way for every kind.
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { can } from '../../shared/permissions';
import { errorAnswers } from '../errors';
import type { WriteScope, WriteTx } from '../write-path';

/** What the queue needs of a reviewed record, whatever its kind. */
interface Reviewed {
  id: string;
  title: string;
  shopId: string | null;
  approved: boolean;
  review: { submittedBy: string | null } | null;
}

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

export interface ReviewDecisions<T extends Reviewed> {
  entityType: 'offer' | 'event';
  params: z.ZodType<{ id: string }>;
  approveBody: z.ZodType<{ version: string }>;
  sendBackBody: z.ZodType<{ version: string; comment: string }>;
  answer: z.ZodType<T>;
  /** The routes' writer (routeWriter: the kind's own error mapper). */
  write: <R>(request: FastifyRequest, work: (scope: WriteScope) => Promise<R>) => Promise<R>;
  /** Puts the submission live if it is still `version`; null when there is no such record. */
  approve(tx: WriteTx, id: string, version: string): Promise<{ before: T; after: T } | null>;
  sendBack(tx: WriteTx, id: string, decision: { comment: string; version: string }): Promise<T | null>;
  notFound(): Error;
  /** The live terms as the audit log keeps them. */
  snapshot(record: T): Record<string, unknown>;
}

/** Registers `POST /:id/approve` and `POST /:id/send-back` on the queue's routes for one kind. */
export function registerReviewDecisions<T extends Reviewed>(app: ZodApp, kind: ReviewDecisions<T>): void {
  const permission = { action: 'update', resource: 'offer-review' } as const;
  // why: widened — the type provider cannot work out what a schema of a type parameter accepts; the
  // handlers answer a T, which `answer` describes (and serializes)
  const response = { 200: kind.answer as z.ZodType<unknown>, ...errorAnswers(409) };

  app.post(
    '/:id/approve',
    { config: { permission }, schema: { params: kind.params, body: kind.approveBody, response } },
    async (request) =>
      kind.write(request, async ({ tx, record }) => {
        const decided = await kind.approve(tx, request.params.id, request.body.version);
        if (!decided) throw kind.notFound();
        const { before, after } = decided;
        record({
          entityType: kind.entityType,
          entityId: after.id,
          entityName: after.title,
          shopId: after.shopId,
          action: 'approve',
          // Something new: its terms went live; a change: the live terms before and after.
          before: before.approved ? kind.snapshot(before) : null,
          after: kind.snapshot(after),
          detail: { submittedBy: before.review?.submittedBy ?? null },
        });
        return after;
      }),
  );

  app.post(
    '/:id/send-back',
    { config: { permission }, schema: { params: kind.params, body: kind.sendBackBody, response } },
    async (request) =>
      kind.write(request, async ({ tx, record }) => {
        const sentBack = await kind.sendBack(tx, request.params.id, request.body);
        if (!sentBack) throw kind.notFound();
        record({
          entityType: kind.entityType,
          entityId: sentBack.id,
          entityName: sentBack.title,
          shopId: sentBack.shopId,
          action: 'send_back',
          detail: { comment: request.body.comment, submittedBy: sentBack.review?.submittedBy ?? null },
        });
        return sentBack;
      }),
  );
}

/**
 * The version of what is under review: a digest of everything an approval would put live — the live
 * terms (`fields` of `live`), the shop, whether it is live already, the proposed change — and the
 * review's state. Equal digests mean the admin decides on exactly the terms they saw, however the record
 * was edited in between (an edit and its undoing give the version back: docs/decisions/029).
 */
export function reviewDigest<F extends string>(
  row: { id: string; shopId: string | null; approved: boolean; reviewState: string | null },
  fields: readonly F[],
  live: Readonly<Record<F, unknown>>,
  proposal: Readonly<Partial<Record<F, unknown>>> | null,
): string {
  const seen = [
    row.id,
    row.shopId,
    row.approved,
    row.reviewState,
    fields.map((field) => live[field]),
    proposal ? fields.map((field) => [field, proposal[field] ?? null]) : null,
  ];
  return createHash('sha256').update(JSON.stringify(seen)).digest('base64url').slice(0, 22);
}

/** Who submits a manager's offer, event or change, and when: it then waits for an admin. */
export interface Submission {
  by: string;
  at: Date;
}

/**
 * A shop manager's submission waits for an admin (docs/decisions/015); an admin's is live at once.
 * Null: no review needed.
 */
export function submissionOf(request: FastifyRequest, at: Date): Submission | null {
  const user = request.user;
  if (!user || can(user, 'update', 'offer-review')) return null;
  return { by: user.id, at };
}

/** The review columns of a record that now waits for an admin. */
export const waitForReview = (submission: Submission) => ({
  reviewState: 'pending' as const,
  reviewComment: null,
  submittedBy: submission.by,
  submittedAt: submission.at,
});
